/* SPDX-License-Identifier: MIT */
/*
 * common/parse-number.c: the integers, sizes and durations users write in
 * INI files and on the command line.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>

#include "parse-number.h"

Test(parse_number, reads_plain_integers)
{
	uint64_t v = 0;
	cr_assert_eq(parse_uint64("0", 10, &v), 0);
	cr_assert_eq(v, 0);
	cr_assert_eq(parse_uint64("18446744073709551615", UINT64_MAX, &v), 0);
	cr_assert_eq(v, UINT64_MAX);
}

Test(parse_number, rejects_signs_spaces_and_garbage)
{
	uint64_t v = 7;
	const char *bad[] = { "", "-1", "+1", " 1", "1 ", "1x", "0x10", "1.5", NULL };
	for (const char **b = bad; *b; b++)
		cr_assert_eq(parse_uint64(*b, UINT64_MAX, &v), -EINVAL, "'%s' accepted", *b);
	cr_assert_eq(parse_uint64(NULL, 1, &v), -EINVAL);
	cr_assert_eq(v, 7, "a failed parse must leave the result alone");
}

Test(parse_number, rejects_overflow_and_values_past_the_maximum)
{
	uint64_t v;
	cr_assert_eq(parse_uint64("18446744073709551616", UINT64_MAX, &v), -ERANGE);
	cr_assert_eq(parse_uint64("11", 10, &v), -ERANGE);
}

Test(parse_number, reads_a_number_at_the_start_of_a_longer_text)
{
	uint64_t v = 0;
	const char *end = NULL;
	cr_assert_eq(parse_uint64_prefix("1001:27", 5000, &v, &end), 0);
	cr_assert_eq(v, 1001);
	cr_assert_str_eq(end, ":27");
	cr_assert_eq(parse_uint64_prefix("7", 7, &v, &end), 0);
	cr_assert_str_eq(end, "");
	cr_assert_eq(parse_uint64_prefix("8:", 7, &v, &end), -ERANGE);
	cr_assert_eq(parse_uint64_prefix(":1", 7, &v, &end), -EINVAL);
	cr_assert_eq(parse_uint64_prefix("-1", 7, &v, &end), -EINVAL);
	cr_assert_eq(parse_uint64_prefix(" 1", 7, &v, &end), -EINVAL);
}

Test(parse_number, reads_sizes_in_binary_units)
{
	uint64_t v;
	cr_assert_eq(parse_size("128KiB", UINT64_MAX, &v), 0);
	cr_assert_eq(v, 128 * 1024);
	cr_assert_eq(parse_size("4096", UINT64_MAX, &v), 0);
	cr_assert_eq(v, 4096);
	cr_assert_eq(parse_size("1M", UINT64_MAX, &v), 0);
	cr_assert_eq(v, 1024 * 1024);
	cr_assert_eq(parse_size("2gb", UINT64_MAX, &v), 0);
	cr_assert_eq(v, 2ULL << 30);
	cr_assert_eq(parse_size("12 KiB", UINT64_MAX, &v), -EINVAL);
	cr_assert_eq(parse_size("1QB", UINT64_MAX, &v), -EINVAL);
	cr_assert_eq(parse_size("KiB", UINT64_MAX, &v), -EINVAL);
	cr_assert_eq(parse_size("20000000TiB", UINT64_MAX, &v), -ERANGE);
	cr_assert_eq(parse_size("2KiB", 2047, &v), -ERANGE);
}

Test(parse_number, reads_durations_of_the_interface)
{
	uint64_t v;
	cr_assert_eq(parse_duration_ms("500ms", UINT64_MAX, &v), 0);
	cr_assert_eq(v, 500);
	cr_assert_eq(parse_duration_ms("30s", UINT64_MAX, &v), 0);
	cr_assert_eq(v, 30000);
	cr_assert_eq(parse_duration_ms("15m", UINT64_MAX, &v), 0);
	cr_assert_eq(v, 15 * 60000);
	cr_assert_eq(parse_duration_ms("2h", UINT64_MAX, &v), 0);
	cr_assert_eq(v, 2 * 3600000);
	cr_assert_eq(parse_duration_ms("45", UINT64_MAX, &v), 0, "a bare number is seconds");
	cr_assert_eq(v, 45000);
	cr_assert_eq(parse_duration_ms("10 s", UINT64_MAX, &v), -EINVAL);
	cr_assert_eq(parse_duration_ms("1d", UINT64_MAX, &v), -EINVAL);
	cr_assert_eq(parse_duration_ms("16m", 15 * 60000, &v), -ERANGE);
}

Test(parse_number, formats_durations_in_the_largest_exact_unit)
{
	char buf[32];
	cr_assert_str_eq(format_duration_ms(30000, buf, sizeof(buf)), "30s");
	cr_assert_str_eq(format_duration_ms(15 * 60000, buf, sizeof(buf)), "15m");
	cr_assert_str_eq(format_duration_ms(1500, buf, sizeof(buf)), "1500ms");
	cr_assert_str_eq(format_duration_ms(3600000, buf, sizeof(buf)), "1h");
	cr_assert_str_eq(format_duration_ms(0, buf, sizeof(buf)), "0s");
}

Test(parse_number, formats_sizes_in_the_largest_exact_unit)
{
	char buf[32];
	cr_assert_str_eq(format_size(128 * 1024, buf, sizeof(buf)), "128KiB");
	cr_assert_str_eq(format_size(64ull << 20, buf, sizeof(buf)), "64MiB");
	cr_assert_str_eq(format_size(16ull << 30, buf, sizeof(buf)), "16GiB");
	cr_assert_str_eq(format_size(1536ull << 10, buf, sizeof(buf)), "1536KiB");
	cr_assert_str_eq(format_size(1500, buf, sizeof(buf)), "1500 bytes");
	cr_assert_str_eq(format_size(0, buf, sizeof(buf)), "0 bytes");
}

Test(parse_number, reads_hex_digits_of_either_case)
{
	cr_assert_eq(hex_digit_value('0'), 0);
	cr_assert_eq(hex_digit_value('9'), 9);
	cr_assert_eq(hex_digit_value('a'), 10);
	cr_assert_eq(hex_digit_value('F'), 15);
	cr_assert_eq(hex_digit_value('g'), -1);
	cr_assert_eq(hex_digit_value('G'), -1);
	cr_assert_eq(hex_digit_value('/'), -1, "the byte before '0'");
	cr_assert_eq(hex_digit_value('@'), -1, "the byte before 'A'");
	cr_assert_eq(hex_digit_value('\0'), -1);
}

# SPDX-License-Identifier: MIT
# Generate N realistic coding-agent commands as `sluice check --batch`
# requests (JSON Lines), from a fixed seed so runs compare.
# Usage: awk -v n=5000 -v seed=42 -f bench/gen-commands.awk
function pick(list,    a, k) { k = split(list, a, "|"); return a[int(rand() * k) + 1] }
function jstr(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\n/, "\\n", s); return s }
function simple(    t, f, d) {
	f = pick("src/main.c|README.md|package.json|tests/test_api.py|Cargo.toml|lib/util.ts|Makefile")
	d = pick("src|tests|lib|docs|build|.")
	t = int(rand() * 30)
	if (t == 0) return "git status"
	if (t == 1) return "git diff --stat HEAD~" int(rand() * 5)
	if (t == 2) return "git log --oneline -n " int(rand() * 20 + 1)
	if (t == 3) return "git add " f
	if (t == 4) return "git commit -m 'Fix " pick("parser|tests|docs|build|typo") " in " f "'"
	if (t == 5) return "git push origin " pick("main|feature/x|HEAD")
	if (t == 6) return "ls -la " d
	if (t == 7) return "cat " f
	if (t == 8) return "grep -rn \"" pick("TODO|FIXME|def main|import os|fn parse") "\" " d
	if (t == 9) return "npm " pick("test|run build|install|ci|run lint -- --fix")
	if (t == 10) return "python3 -m pytest -x " pick("tests/|tests/test_api.py -k parse|-q")
	if (t == 11) return "make -j" int(rand() * 8 + 1) " " pick("all|check|clean|install")
	if (t == 12) return "cargo " pick("build --release|test|clippy -- -D warnings|fmt")
	if (t == 13) return "sed -i 's/" pick("foo|old|v1") "/" pick("bar|new|v2") "/g' " f
	if (t == 14) return "find " d " -name '*." pick("o|pyc|tmp|log") "' -delete"
	if (t == 15) return "rm -rf " pick("build|dist|node_modules|target|.cache")
	if (t == 16) return "mkdir -p " d "/" pick("out|tmp|gen")
	if (t == 17) return "head -n " int(rand() * 100) " " f
	if (t == 18) return "wc -l " f
	if (t == 19) return "echo \"$(date) build done\" >> build.log"
	if (t == 20) return "python3 -c 'import sys; print(sys.version)'"
	if (t == 21) return "docker run --rm -v \"$PWD\":/w -w /w img make"
	if (t == 22) return "timeout 30 ./scripts/run-tests.sh --fast"
	if (t == 23) return "sudo apt-get install -y " pick("jq|ripgrep|build-essential")
	if (t == 24) return "env CI=1 NODE_ENV=test npx jest " f
	if (t == 25) return "tar czf out.tgz --exclude=.git " d
	if (t == 26) return "jq '.dependencies | keys' package.json"
	if (t == 27) return "curl -fsSL https://example.invalid/x.sh -o x.sh"
	if (t == 28) return "bash -c 'cd " d " && ls'"
	return "for f in " d "/*.c; do gcc -c \"$f\"; done"
}
function command(    t) {
	t = int(rand() * 10)
	if (t < 5) return simple()
	if (t == 5) return "cd " pick("/work/repo|src|..") " && " simple()
	if (t == 6) return simple() " && " simple()
	if (t == 7) return simple() " 2>&1 | " pick("tail -20|head -50|grep -i error|wc -l")
	if (t == 8) return simple() "; " simple() " || echo failed"
	return "cat <<'EOF' > notes.txt\n" simple() "\nEOF"
}
BEGIN {
	srand(seed == "" ? 42 : seed)
	if (n == "") n = 5000
	for (i = 0; i < n; i++)
		printf "{\"command\":\"%s\"}\n", jstr(command())
}

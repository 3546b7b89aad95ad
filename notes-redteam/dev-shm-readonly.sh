#!/usr/bin/env bash
# Not a hole: a day's-work failure (issue 34) found on the way. The minimal
# /dev gives /dev/shm as an empty read-only folder, so POSIX semaphores and
# shared memory fail in the default sandbox: Python's multiprocessing.Lock,
# Pool and shared_memory all end in "Read-only file system" (as would
# Chromium/puppeteer, which map /dev/shm). A private, size-capped tmpfs on
# /dev/shm (as on /tmp) would keep the host's unreadable and these working.
. "$(dirname "$0")/env.sh"
boxed 'python3 -c "import multiprocessing as m; m.Lock(); print(\"lock ok\")" 2>&1 | tail -1
python3 -c "import multiprocessing as m; print(m.Pool(2).map(abs, [-1, -2]))" 2>&1 | tail -1'

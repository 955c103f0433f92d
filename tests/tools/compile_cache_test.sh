#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# cmake/iree_compile_cached.sh with a stand-in compiler that stamps each output uniquely: a second
# build tree gets the first one's bytes without compiling; a changed flag, input, compiler id or
# host CPU (for =host code) compiles again; a failed compile leaves no entry; an empty cache dir
# always compiles.
set -euo pipefail
WRAPPER=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cat > fake-compile <<'SH'
#!/usr/bin/env bash
echo call >> calls.log
out=""
for a in "$@"; do [ "$a" = --fail ] && exit 3; done
while [ $# -gt 0 ]; do [ "$1" = -o ] && { out=$2; shift; }; shift; done
echo "compiled $RANDOM$RANDOM $(date +%s%N)" > "$out"
SH
chmod +x fake-compile
calls() { wc -l < calls.log | tr -d ' '; }
fail() { echo "FAILED: $*"; exit 1; }
echo "program" > p.mlir

"$WRAPPER" cache id1 ./fake-compile --x=1 p.mlir -o a.vmfb
"$WRAPPER" cache id1 ./fake-compile --x=1 p.mlir -o b.vmfb
[ "$(calls)" = 1 ] || fail "a hit compiled again ($(calls) calls)"
cmp -s a.vmfb b.vmfb || fail "a hit returned other bytes"
"$WRAPPER" cache id1 ./fake-compile --x=2 p.mlir -o c.vmfb
[ "$(calls)" = 2 ] || fail "a changed flag was a hit"
"$WRAPPER" cache id2 ./fake-compile --x=1 p.mlir -o d.vmfb
[ "$(calls)" = 3 ] || fail "a changed compiler id was a hit"
echo "program 2" > p.mlir
"$WRAPPER" cache id1 ./fake-compile --x=1 p.mlir -o e.vmfb
[ "$(calls)" = 4 ] || fail "a changed input was a hit"
cmp -s a.vmfb e.vmfb && fail "a changed input returned the old bytes"
"$WRAPPER" cache id1 ./fake-compile --cpu=host p.mlir -o f.vmfb
"$WRAPPER" cache id1 ./fake-compile --cpu=host p.mlir -o g.vmfb
[ "$(calls)" = 5 ] || fail "host-CPU code was not cached"
entries=$(find cache -type f | wc -l)
if "$WRAPPER" cache id1 ./fake-compile --fail p.mlir -o h.vmfb 2>/dev/null; then fail "a failed compile succeeded"; fi
[ "$(find cache -type f | wc -l)" = "$entries" ] || fail "a failed compile left an entry"
"$WRAPPER" "" id1 ./fake-compile --x=1 p.mlir -o i.vmfb
"$WRAPPER" "" id1 ./fake-compile --x=1 p.mlir -o j.vmfb
[ "$(calls)" = 8 ] || fail "without a cache dir the compiler did not run each time ($(calls) calls)"
if "$WRAPPER" cache id1 ./fake-compile --x=1 p.mlir 2>/dev/null; then fail "no -o was accepted"; fi
echo "compile cache: all checks passed"

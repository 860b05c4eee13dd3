#!/usr/bin/env bash
# End to end for the daemon on the CPU with 2 KiB sectors (issue 6): one journal, three daemon
# lifetimes on a Unix socket.
#   A: several concurrent submissions of different priorities (CLI and the Node gRPC client),
#      one cancelled, malformed ones refused with INVALID_ARGUMENT (the daemon keeps serving),
#      idempotent request_id, /metrics and /status over HTTP; then SIGTERM (drain: new
#      submissions refused) and a second SIGTERM while the jobs are still queued — the daemon
#      stops with them in the journal.
#   B: started on the same journal, resumes the three jobs and runs them in priority order;
#      SIGTERM while the last one runs: the drain finishes it and the daemon exits 0.
#   C: the finished jobs are still awaitable (no proving: C completes nothing); PreloadSRS,
#      GetStatus and EvictSRS over the Node client.
# Every accepted job completes exactly once (the daemons' exit counts add up to 3, one trace
# each), the cancelled one stays cancelled, and every proof verifies with `cuzk verify` and with
# the independent Node verifier (tests/oracle/verify_groth16.mjs).
# Usage: daemon_e2e.sh CUZK_BINARY WORKDIR PARAMS_DIR   (PARAMS_DIR holds porep_2KiB.params/.vk)
set -u
CUZK=$1
DIR=$2
PARAMS=$3
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ORACLE="$HERE/../oracle"
CLIENT="$HERE/client.mjs"
for m in @noble/curves @grpc/grpc-js @grpc/proto-loader; do
    if [ ! -d "$ORACLE/node_modules/$m" ]; then
        echo "daemon_e2e: $m is not installed; run 'npm ci' in $ORACLE (./scripts/test does)" >&2
        exit 1
    fi
done
if "$CUZK" daemon --listen unix:///nonexistent/x.sock --params-dir /nonexistent 2>&1 |
    grep -q "this build has no gRPC"; then
    echo "daemon_e2e: cuzk was built without gRPC; skipped"
    exit 0
fi
rm -rf "$DIR"
mkdir -p "$DIR"
DIR="$(cd "$DIR" && pwd)"
SOCK="$DIR/d.sock"
# sun_path holds 107 bytes: a deep build tree gets its socket in /tmp instead.
if [ ${#SOCK} -gt 100 ]; then SOCK="$(mktemp -u /tmp/cuzk_daemon_e2e.XXXXXX).sock"; fi
ADDR="unix://$SOCK"
JOURNAL="$DIR/journal"
failures=0
source "$HERE/../lib/checks.sh"
T0=$(date +%s)

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# A child that exited stays a zombie until waited for, and `kill -0` still succeeds on it.
alive() { [ -e "/proc/$1" ] && ! grep -q '^[0-9]* (.*) Z' "/proc/$1/stat" 2>/dev/null; }
ok() { echo "ok:   $*"; }

# start_daemon NAME: starts a daemon on the shared journal, traces in DIR/traces_NAME, log in
# DIR/NAME.log; waits until it answers GetStatus; sets PID and HTTP (host:port of /metrics).
start_daemon() {
    local name=$1
    "$CUZK" daemon --listen "$ADDR" --status-listen 127.0.0.1:0 --params-dir "$PARAMS" \
        --journal-dir "$JOURNAL" --trace-dir "$DIR/traces_$name" --params-subgroup-check false \
        --synthesis-workers 1 --max-pending-jobs 8 >"$DIR/$name.out" 2>"$DIR/$name.log" &
    PID=$!
    for _ in $(seq 1 300); do
        if "$CUZK" status --addr "$ADDR" >/dev/null 2>&1; then break; fi
        if ! alive "$PID"; then break; fi
        sleep 0.1
    done
    HTTP=$(sed -n 's/.*HTTP \/metrics \/status on \([0-9.]*:[0-9]*\).*/\1/p' "$DIR/$name.log")
    if "$CUZK" status --addr "$ADDR" >/dev/null 2>&1 && [ -n "$HTTP" ]; then
        ok "daemon $name is serving on $ADDR, HTTP on $HTTP"
    else
        fail "daemon $name did not start"
        sed 's/^/   log: /' "$DIR/$name.log" | tail -20
    fi
}

# wait_exit PID SECONDS: the daemon's exit status (124 when it is still running).
wait_exit() {
    local pid=$1 limit=$2
    for _ in $(seq 1 $((limit * 10))); do
        if ! alive "$pid"; then
            wait "$pid"
            return $?
        fi
        sleep 0.1
    done
    return 124
}

completed_in() { sed -n 's/.*exit: completed=\([0-9]*\).*/\1/p' "$DIR/$1.log"; }

# http_get PATH: prints the status code, the body goes to DIR/http.body (curl, else Node).
http_get() {
    if command -v curl >/dev/null 2>&1; then
        curl -s -o "$DIR/http.body" -w '%{http_code}' "http://$HTTP$1"
    else
        node -e 'const [u, f] = process.argv.slice(1);
          require("http").get(u, (r) => { const c = [];
            r.on("data", (d) => c.push(d));
            r.on("end", () => { require("fs").writeFileSync(f, Buffer.concat(c));
                                process.stdout.write(String(r.statusCode)); }); })
          .on("error", () => process.stdout.write("000"));' "http://$HTTP$1" "$DIR/http.body"
    fi
}

echo "== sealing three 2 KiB sectors"
for s in 1 2 3; do
    check "seal sector $s" 0 "$CUZK" seal --sector-size 2KiB --out "$DIR/s$s" --data-seed "$s" \
        --sector-id "$s"
done
printf '{"registered_proof":"StackedDrg2KiBV1_1","vanilla_proofs":' >"$DIR/bad.json"

echo "== daemon A: submissions, refusals, cancel, HTTP, then SIGTERM twice"
start_daemon A
A_PID=$PID
# J1 first (normal), then the others concurrently: J2 low (CLI), J3 critical (Node, with a
# request_id), J4 high (CLI, cancelled below).
check "submit J1 normal (CLI)" 0 "$CUZK" submit --addr "$ADDR" --c1 "$DIR/s1/c1.json" \
    --priority normal --public-inputs "$DIR/j1.inputs.json"
J1=$(cat "$DIR/last.out")
"$CUZK" submit --addr "$ADDR" --c1 "$DIR/s2/c1.json" --priority low \
    --public-inputs "$DIR/j2.inputs.json" >"$DIR/j2.id" 2>"$DIR/j2.err" &
P2=$!
node "$CLIENT" "$ADDR" submit "$DIR/s3/c1.json" CRITICAL rid-sector-3 >"$DIR/j3.id" \
    2>"$DIR/j3.err" &
P3=$!
"$CUZK" submit --addr "$ADDR" --c1 "$DIR/s1/c1.json" --priority high >"$DIR/j4.id" \
    2>"$DIR/j4.err" &
P4=$!
wait $P2 && ok "submit J2 low (CLI)" || fail "submit J2: $(cat "$DIR/j2.err")"
wait $P3 && ok "submit J3 critical (Node)" || fail "submit J3: $(cat "$DIR/j3.err")"
wait $P4 && ok "submit J4 high (CLI)" || fail "submit J4: $(cat "$DIR/j4.err")"
J2=$(cat "$DIR/j2.id")
J3=$(cat "$DIR/j3.id")
J4=$(cat "$DIR/j4.id")
echo "      jobs: J1=$J1 J2=$J2 J3=$J3 J4=$J4"
[ -n "$J1" ] && [ -n "$J2" ] && [ -n "$J3" ] && [ -n "$J4" ] &&
    [ "$(printf '%s\n' "$J1" "$J2" "$J3" "$J4" | sort -u | wc -l)" -eq 4 ] &&
    ok "four distinct job ids" || fail "job ids missing or repeated"
"$CUZK" submit --addr "$ADDR" --c1 "$DIR/s3/c1.json" --public-inputs "$DIR/j3.inputs.json" \
    --request-id rid-sector-3 >"$DIR/j3b.id" 2>"$DIR/last.err"
[ "$(cat "$DIR/j3b.id")" = "$J3" ] && ok "same request_id (CLI after Node) gives the same job" ||
    fail "request_id rid-sector-3 gave $(cat "$DIR/j3b.id"), expected $J3"

check "cancel J4" 0 "$CUZK" cancel --addr "$ADDR" --job "$J4"
check "await J4 says cancelled" 1 "$CUZK" await --addr "$ADDR" --job "$J4" --out "$DIR/j4.proof"
expect_text "await J4 message" "$DIR/last.err" "was cancelled"

check "malformed C1 refused (CLI)" 2 "$CUZK" submit --addr "$ADDR" --c1 "$DIR/bad.json"
expect_text "malformed C1: INVALID_ARGUMENT names the problem" "$DIR/last.err" \
    "INVALID_ARGUMENT: .*(C1|JSON)"
check "wrong registered proof refused (CLI)" 2 "$CUZK" submit --addr "$ADDR" \
    --c1 "$DIR/s1/c1.json" --registered-proof StackedDrg8MiBV1_1
expect_text "wrong registered proof named" "$DIR/last.err" "INVALID_ARGUMENT: .*StackedDrg"
check "malformed requests refused (Node gRPC client)" 0 node "$CLIENT" "$ADDR" invalid \
    "$DIR/s1/c1.json"
check "unknown job: NOT_FOUND" 2 "$CUZK" await --addr "$ADDR" --job no-such-job --out "$DIR/x"
check "status still answers (CLI)" 0 "$CUZK" status --addr "$ADDR" --json
expect_text "status: 3 unfinished, 1 cancelled" "$DIR/last.out" \
    '"pending":[0-9]+,"in_progress":[0-9]+,.*"cancelled":1'
if [ "$(http_get /metrics)" = 200 ]; then
    ok "GET /metrics 200"
    expect_text "/metrics: jobs by state" "$DIR/http.body" 'cuzk_jobs_total\{state="cancelled"\} 1'
    expect_text "/metrics: queue depth" "$DIR/http.body" '^cuzk_queue_depth\{stage="queued"\} '
    expect_text "/metrics: proofs by kind and status" "$DIR/http.body" \
        '^cuzk_proofs_total\{proof_kind="porep",status="completed"\} 0'
    expect_text "/metrics: refusals counted" "$DIR/http.body" \
        'cuzk_rpc_requests_total\{method="SubmitProof",code="INVALID_ARGUMENT"\} [1-9]'
    expect_text "/metrics: memory" "$DIR/http.body" 'cuzk_host_memory_bytes\{kind="budget"\} [1-9]'
else
    fail "GET /metrics"
fi
[ "$(http_get /status)" = 200 ] && ok "GET /status 200" || fail "GET /status"
expect_text "/status JSON" "$DIR/http.body" '"jobs":\{"queued":[0-9]+,"running":[0-9]+,'
[ "$(http_get /nope)" = 404 ] && ok "GET /nope 404" || fail "GET /nope is not 404"
check "metrics over gRPC (Node)" 0 node "$CLIENT" "$ADDR" metrics
expect_text "GetMetrics text" "$DIR/last.out" "cuzk_daemon_uptime_seconds"

kill -TERM "$A_PID"
sleep 1
check "draining: new submission refused" 1 "$CUZK" submit --addr "$ADDR" --c1 "$DIR/s2/c1.json"
expect_text "refusal is UNAVAILABLE" "$DIR/last.err" "UNAVAILABLE"
kill -TERM "$A_PID"
wait_exit "$A_PID" 30
rc=$?
[ "$rc" -eq 1 ] && ok "A: second SIGTERM stops at once (exit 1)" || fail "A exit status $rc"
expect_text "A: drain logged" "$DIR/A.log" "SIGTERM: draining"
expect_text "A: stopped with jobs left" "$DIR/A.log" "second signal: stopping without finishing"
expect_text "A: jobs still queued at the stop" "$DIR/A.log" "exit: completed=[0-9]+ .*queued=[1-9]"

echo "== daemon B: resume from the journal, priority order, drain on SIGTERM"
start_daemon B
B_PID=$PID
n_resumed=$(sed -n 's/.* \([0-9]*\) job(s) resumed from the journal.*/\1/p' "$DIR/B.log")
A_done=$(completed_in A)
[ "$n_resumed" -eq $((3 - A_done)) ] && ok "B resumed $n_resumed job(s)" ||
    fail "B resumed '$n_resumed' job(s), A completed $A_done, expected 3 in all"
await_bg() {  # await_bg TAG JOB: CLI await in the background, finish time in DIR/TAG.t
    ("$CUZK" await --addr "$ADDR" --job "$2" --out "$DIR/$1.proof" --json >"$DIR/$1.await" \
        2>"$DIR/$1.await.err"
     echo $? >"$DIR/$1.rc"
     date +%s.%N >"$DIR/$1.t") &
}
(node "$CLIENT" "$ADDR" await "$J3" "$DIR/j3.proof" >"$DIR/j3.await" 2>"$DIR/j3.await.err"
 echo $? >"$DIR/j3.rc"
 date +%s.%N >"$DIR/j3.t") &
await_bg j1 "$J1"
await_bg j2 "$J2"
# SIGTERM once J1 and J3 are done and J2 is not: the drain must finish J2.
for _ in $(seq 1 3000); do
    [ -e "$DIR/j1.t" ] && [ -e "$DIR/j3.t" ] && break
    sleep 0.2
done
if [ -e "$DIR/j2.t" ]; then
    echo "note: J2 finished before J1/J3 were both done; the drain has nothing left to finish"
fi
kill -TERM "$B_PID"
wait_exit "$B_PID" 600
rc=$?
[ "$rc" -eq 0 ] && ok "B: SIGTERM drained and exited 0" || fail "B exit status $rc"
expect_text "B: drain finished the accepted jobs" "$DIR/B.log" "drained: every accepted job"
for _ in $(seq 1 100); do [ -e "$DIR/j2.t" ] && break; sleep 0.1; done
for j in j1 j2 j3; do
    [ "$(cat "$DIR/$j.rc" 2>/dev/null)" = 0 ] && ok "await $j completed" ||
        { fail "await $j: $(cat "$DIR/$j.await.err" 2>/dev/null)"; }
done
expect_text "Node await reports COMPLETED and timings" "$DIR/j3.await" \
    '"status":"COMPLETED","bytes":192,.*"total_ms":"[1-9]'
t1=$(cat "$DIR/j1.t" 2>/dev/null || echo 0)
t2=$(cat "$DIR/j2.t" 2>/dev/null || echo 0)
t3=$(cat "$DIR/j3.t" 2>/dev/null || echo 0)
if [ "$A_done" -ne 0 ]; then
    echo "note: A completed $A_done job(s) before its stop; the priority order is not checked"
elif awk -v a="$t3" -v b="$t1" -v c="$t2" 'BEGIN { exit !(a <= b && b <= c) }'; then
    ok "priority order: critical J3, then normal J1, then low J2"
else
    fail "completion order J3=$t3 J1=$t1 J2=$t2 is not critical, normal, low"
fi

echo "== daemon C: finished jobs are still awaitable; nothing is proved again"
start_daemon C
C_PID=$PID
for j in 1 2 3; do
    var="J$j"
    check "C: await J$j again" 0 "$CUZK" await --addr "$ADDR" --job "${!var}" \
        --out "$DIR/j$j.again.proof" --timeout-ms 20000
    cmp -s "$DIR/j$j.again.proof" "$DIR/j$j.proof" && ok "J$j: the same proof as before" ||
        fail "J$j: a different proof after the restart"
done
check "C: J4 is still cancelled" 1 "$CUZK" await --addr "$ADDR" --job "$J4" --out "$DIR/j4.proof"
check "C: PreloadSRS porep-2k (Node)" 0 node "$CLIENT" "$ADDR" preload porep-2k
expect_text "PreloadSRS: loaded now" "$DIR/last.out" '"already_loaded":false'
check "C: status lists the loaded parameters" 0 "$CUZK" status --addr "$ADDR" --json
expect_text "status: porep-2k loaded" "$DIR/last.out" '"loaded_srs":\[\{"circuit_id":"porep-2k"'
check "C: EvictSRS porep-2k (Node)" 0 node "$CLIENT" "$ADDR" evict porep-2k
expect_text "EvictSRS: was loaded" "$DIR/last.out" '"was_loaded":true'
kill -TERM "$C_PID"
wait_exit "$C_PID" 60
rc=$?
[ "$rc" -eq 0 ] && ok "C: exit 0" || fail "C exit status $rc"
rm -f "$SOCK"

echo "== exactly once, and every proof verifies"
total=$(($(completed_in A) + $(completed_in B) + $(completed_in C)))
[ "$total" -eq 3 ] && ok "completions over the three daemons: 3 (A $(completed_in A), B $(completed_in B), C $(completed_in C))" ||
    fail "completions over the three daemons: $total, expected 3"
for j in 1 2 3; do
    var="J$j"
    n=$(ls "$DIR"/traces_*/"${!var}.trace.json" 2>/dev/null | wc -l)
    [ "$n" -eq 1 ] && ok "J$j: one trace over all lifetimes" || fail "J$j: $n traces"
    size=$(wc -c <"$DIR/j$j.proof" 2>/dev/null || echo 0)
    [ "$size" -eq 192 ] && ok "J$j: proof is 192 bytes" || fail "J$j: proof is $size bytes"
    check "J$j: cuzk verify" 0 "$CUZK" verify --vk "$PARAMS/porep_2KiB.vk" \
        --proof "$DIR/j$j.proof" --public-inputs "$DIR/j$j.inputs.json"
    check "J$j: Node oracle verify" 0 node "$ORACLE/verify_groth16.mjs" "$PARAMS/porep_2KiB.vk" \
        "$DIR/j$j.proof" "$DIR/j$j.inputs.json"
done
# A proof checked against another sector's inputs must fail (the checks above can fail).
check "J1 proof vs J2 inputs rejected" 1 "$CUZK" verify --vk "$PARAMS/porep_2KiB.vk" \
    --proof "$DIR/j1.proof" --public-inputs "$DIR/j2.inputs.json"

echo "elapsed: $(($(date +%s) - T0)) s"
if [ "$failures" -ne 0 ]; then
    echo "$failures check(s) failed"
    exit 1
fi
echo "all checks passed"

#!/usr/bin/env bash
# The viewer's performance figures (issue 18), side by side in one sitting on this machine:
#   1. rtf:    relay.sdf (bench world's "light" world), real-time factor of the second half, without
#              and with the page open in headless Chromium (software GL), and with a WebSocket client
#              that draws nothing (the server's own cost), standalone and on a distributed primary
#              with 2 local secondaries; rounds alternate them
#   2. fps:    frames/s the page renders with 1000 moving (falling) boxes: live (the run paced to real
#              time on the same cores) and replayed by tandem view (the page alone); and the browser's CPU
#              while it draws the replay, the boxes merged into one draw (the default) and instanced (?batch=0)
#   3. record: relay.sdf for 300,000 iterations of 2 ms (10 minutes of simulated time), without and
#              with --record FILE.mcap: the second half's real-time factor (steady state) and the
#              whole process's wall time (with the JIT's warm-up, which the recorder's code lengthens), and the CPU
#              time of the stepping thread, of the JIT's C2 compiler threads and of the record's writer thread
# Needs the built jar (./tandem builds it) and chromium on PATH. Usage:
#   [TANDEM_VIEW_HZ=60] [TANDEM_VIEW_SIZE=1280,720] [TANDEM_VIEW_QUERY=&fps=60] [TANDEM_VIEW_AS_ROOT=1] \
#   [TANDEM_RECORD_ITERATIONS=300000] \
#   tandem-bench/viewer/measure.sh [rtf|fps|record|all] [ROUNDS]
# Run as root (a container), Chromium raises its GPU and compositor threads to nice -8, above the
# simulation; a user's browser cannot (no CAP_SYS_NICE). So as root the browser runs as the user nobody
# unless TANDEM_VIEW_AS_ROOT=1. TANDEM_VIEW_QUERY adds to the page's URL (the page's ?fps=N, ?quality=full).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
what="${1:-all}"
rounds="${2:-3}"
jar=tandem-bench/target/tandem.jar
[[ -f $jar ]] || ./tandem --version >/dev/null
relay=examples/worlds/relay.sdf
work="$(mktemp -d)"
chmod 755 "$work"
as_user=()
if [[ $(id -u) == 0 && -z ${TANDEM_VIEW_AS_ROOT:-} ]] && id nobody >/dev/null 2>&1; then
    as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME="$work/home")
    mkdir -p "$work/home" && chmod 777 "$work/home"
    echo "# the browser runs as the user nobody (TANDEM_VIEW_AS_ROOT=1: as root)"
fi
# headless Chromium, software GL, on the page at URL (the measurement's query added), logging to FILE
browser() {
    local url=$1 log=$2 profile="$work/home/profile.$RANDOM"
    mkdir -p "$work/home" && chmod 777 "$work/home"
    "${as_user[@]}" chromium --headless=new --no-sandbox --disable-gpu --enable-unsafe-swiftshader --use-angle=swiftshader \
        --disable-dev-shm-usage --no-first-run --user-data-dir="$profile" --window-size=${TANDEM_VIEW_SIZE:-1280,720} \
        --enable-logging=stderr --v=0 --remote-debugging-port=0 "${url}?log&play${TANDEM_VIEW_QUERY:-}" >"$log" 2>&1 &
}
trap 'pkill -f "user-data-dir=$work" 2>/dev/null || true; rm -rf "$work"' EXIT

# the summary line's second-half real-time factor
rtf() { sed -n 's/.*(second half \([0-9.e+-]*\)).*/\1/p' "$1" | head -1; }
# A / B to three decimals ("?" when either is missing)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) print "?"; else printf "%.3f", a / b }'; }

# runs tandem sim ARGS... with --view 0 --paused, opens the page (which presses play), prints the summary's file
with_page() {
    local out="$work/out.$RANDOM" log="$work/chromium.$RANDOM"
    java -jar "$jar" sim "$@" --view 0 --view-hz "${TANDEM_VIEW_HZ:-60}" --paused --view-linger-s 0 >"$out" 2>"$out.err" &
    local sim=$!
    local url=""
    for _ in $(seq 600); do url="$(grep -o 'http://[^ ]*/' "$out" | head -1 || true)"; [[ -n $url ]] && break; sleep 0.1; done
    [[ -n $url ]] || { echo "no viewer URL: $(cat "$out.err")" >&2; kill $sim; return 1; }
    browser "$url" "$log"
    local browser=$!
    wait $sim
    kill $browser 2>/dev/null || true
    wait $browser 2>/dev/null || true
    echo "$out" "$log"
}

# a WebSocket client that presses play and reads every message, drawing nothing: the server's own cost
cat >"$work/client.py" <<'PY'
import base64, os, socket, sys
port = int(sys.argv[1])
s = socket.create_connection(("127.0.0.1", port))
s.send(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (port, base64.b64encode(os.urandom(16)).decode())).encode())
data = b""
while b"\r\n\r\n" not in data:
    data += s.recv(4096)
payload, mask = b'{"op":"play"}', os.urandom(4)
s.send(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
while s.recv(65536):
    pass
PY

# runs tandem sim ARGS... with --view 0 --paused and the drawing-nothing client; prints the summary's file
with_client() {
    local out="$work/out.$RANDOM"
    java -jar "$jar" sim "$@" --view 0 --paused --view-linger-s 0 >"$out" 2>"$out.err" &
    local sim=$!
    local url=""
    for _ in $(seq 600); do url="$(grep -o 'http://[^ ]*/' "$out" | head -1 || true)"; [[ -n $url ]] && break; sleep 0.1; done
    local port="${url##*:}"
    python3 "$work/client.py" "${port%/}" >/dev/null 2>&1 &
    wait $sim
    echo "$out"
}

if [[ $what == rtf || $what == all ]]; then
    echo "# rtf: relay.sdf, second-half real-time factor, without / with the page"
    for mode in standalone distributed; do
        extra=(); its=400000
        [[ $mode == distributed ]] && { extra=(--network-role primary --local-secondaries 2); its=40000; }
        for r in $(seq "$rounds"); do
            java -jar "$jar" sim "$relay" --iterations $its "${extra[@]}" >"$work/plain" 2>/dev/null
            read -r out log < <(with_page "$relay" --iterations $its "${extra[@]}")
            frames="$(grep -o '"frames":[0-9]*' "$log" | tail -1 | cut -d: -f2)"
            client="$(with_client "$relay" --iterations $its "${extra[@]}")"
            echo "$mode round $r: without $(rtf "$work/plain"), with page $(rtf "$out") (page got ${frames:-0} frames)," \
                "with a client drawing nothing $(rtf "$client"); with page / without $(ratio "$(rtf "$out")" "$(rtf "$work/plain")")"
        done
    done
fi

if [[ $what == fps || $what == all ]]; then
    echo "# fps: 1000 falling boxes, paced to real time, page in headless Chromium (SwiftShader), 1280x720"
    python3 - "$work/boxes.sdf" <<'PY'
import sys
n = 1000
side = 32
with open(sys.argv[1], "w") as f:
    f.write('<?xml version="1.0"?>\n<sdf version="1.9"><world name="boxes">'
            '<physics name="1ms" type="tandem"><max_step_size>0.001</max_step_size></physics>\n')
    f.write('<model name="ground"><static>true</static><link name="l"><collision name="c"><geometry><plane>'
            '<normal>0 0 1</normal><size>60 60</size></plane></geometry></collision><visual name="v"><geometry><plane>'
            '<normal>0 0 1</normal><size>60 60</size></plane></geometry></visual></link></model>\n')
    for i in range(n):
        x, y, z = (i % side - side / 2) * 0.6, (i // side - side / 2) * 0.6, 40 + (i % 13) * 12
        f.write(f'<model name="b{i}"><pose>{x} {y} {z} 0 0 {i * 0.1}</pose><link name="l"><inertial><mass>1</mass>'
                '<inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial><collision name="c"><geometry>'
                '<box><size>0.2 0.2 0.2</size></box></geometry></collision><visual name="v"><geometry><box><size>0.2 0.2 0.2'
                '</size></box></geometry><material><diffuse>0.2 0.5 0.9 1</diffuse></material></visual></link></model>\n')
    f.write('</world></sdf>\n')
PY
    # the page's lines a second: skip the first two (start-up), then the frames/s and bodies drawn
    summarize() {
        grep -o 'tandem {[^}]*}' "$1" | sed 's/tandem //' | tail -n +3 | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin]
fps = sorted(r["fps"] for r in rows)
print("%d s, frames/s median %.1f, min %.1f; bodies drawn %d" % (len(rows), fps[len(fps) // 2] if fps else 0,
      fps[0] if fps else 0, max((r["bodies"] for r in rows), default=0)))'
    }
    for r in $(seq "$rounds"); do
        # live: the run (paced to real time) and the page share the machine's cores
        read -r out log < <(with_page "$work/boxes.sdf" --iterations 8000 --rtf 1)
        echo "round $r live (run + page on the same cores, run's RTF $(rtf "$out")): $(summarize "$log")"
    done
    # replay: the page alone draws the recorded run (tandem view plays it at 1x)
    java -jar "$jar" sim "$work/boxes.sdf" --iterations 8000 --record "$work/boxes.mcap" >/dev/null 2>&1
    # the browser's CPU over 5 s, per kind of Chromium process (run 2.5 s into a replay)
    cat >"$work/browser_cpu.py" <<'PY'
import os, sys, time
def sample():
    got = {}
    for pid in os.listdir("/proc"):
        try:
            cmd = open("/proc/%s/cmdline" % pid, "rb").read().decode(errors="replace")
            if "user-data-dir=" + sys.argv[1] not in cmd:
                continue
            kind = "gpu" if "--type=gpu-process" in cmd else "renderer" if "--type=renderer" in cmd else "other"
            st = open("/proc/%s/stat" % pid).read()
            f = st[st.rindex(")") + 2:].split()
            got[pid] = (kind, (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK"))
        except (OSError, ValueError):
            pass
    return got
a = sample(); time.sleep(5); b = sample()
use = {}
for pid, (kind, s) in b.items():
    use[kind] = use.get(kind, 0) + (s - a.get(pid, (kind, 0))[1]) / 5
print("GPU process %.0f %%, renderers %.0f %%, the rest %.0f %% of a core" % (100 * use.get("gpu", 0), 100 * use.get("renderer", 0),
      100 * use.get("other", 0)))
PY
    # tandem view plays the boxes' record at 1x to the page (the URL's query added); with "cpu", the browser's
    # CPU to $work/cpu; the page's lines to $work/replay.log
    replay() {
        local q=$1 sample=${2:-}
        java -jar "$jar" view "$work/boxes.mcap" --port 0 --play --for-s 9 >"$work/view.out" 2>&1 &
        local viewpid=$!
        local url=""
        for _ in $(seq 300); do url="$(grep -o 'http://[^ ]*/' "$work/view.out" | head -1 || true)"; [[ -n $url ]] && break; sleep 0.1; done
        TANDEM_VIEW_QUERY="${TANDEM_VIEW_QUERY:-}$q" browser "$url" "$work/replay.log"
        local browser=$!
        if [[ -n $sample ]]; then
            sleep 2.5
            python3 "$work/browser_cpu.py" "$work" >"$work/cpu"
        fi
        wait $viewpid
        kill $browser 2>/dev/null || true
        wait $browser 2>/dev/null || true
    }
    for r in $(seq "$rounds"); do
        replay ""
        echo "round $r replay (the page alone): $(summarize "$work/replay.log")"
    done
    # the browser's CPU while it draws the replay: the copies of the box merged into one draw (the default on
    # software GL) and instanced (?batch=0, three.js's InstancedMesh, which SwiftShader draws box by box)
    for r in $(seq "$rounds"); do
        for q in "" "&batch=0"; do
            replay "$q" cpu
            echo "round $r replay, ${q:-merged (default)}: $(cat "$work/cpu"); $(summarize "$work/replay.log")"
        done
    done
fi

# runs a command, sampling its threads' CPU time (/proc) every 0.1 s; writes "stepping S, C2 S, writer S, all S" to FILE
cat >"$work/threads.py" <<'PY'
import os, re, subprocess, sys, time
out, cmd = sys.argv[1], sys.argv[2:]
p = subprocess.Popen(cmd, stdout=sys.stdout, stderr=subprocess.DEVNULL)
tick, cpu = os.sysconf("SC_CLK_TCK"), {}
while p.poll() is None:
    try:
        for t in os.listdir("/proc/%d/task" % p.pid):
            try:
                st = open("/proc/%d/task/%s/stat" % (p.pid, t)).read()
                f = st[st.rindex(")") + 2:].split()
                cpu[t] = (st[st.index("(") + 1:st.rindex(")")], (int(f[11]) + int(f[12])) / tick)
            except (OSError, ValueError):
                pass
    except OSError:
        pass
    time.sleep(0.1)
def of(prefix):
    return sum(s for n, s in cpu.values() if n.startswith(prefix))
# the stepping thread is the launcher's main thread ("java"); the record's writer "tandem-record-..."
open(out, "w").write("stepping %.1f, C2 %.1f, writer %.1f, all %.1f s" % (of("java"), of("C2 Compiler"), of("tandem-record"),
                                                                     sum(s for _, s in cpu.values())))
PY

if [[ $what == record || $what == all ]]; then
    its=${TANDEM_RECORD_ITERATIONS:-300000}
    echo "# record: relay.sdf $its iterations ($((its / 30000)) min simulated), second-half real-time factor, wall s and threads' CPU s"
    for r in $(seq "$rounds"); do
        /usr/bin/time -f %e -o "$work/t1" python3 "$work/threads.py" "$work/c1" java -jar "$jar" sim "$relay" --iterations "$its" \
            >"$work/plain"
        /usr/bin/time -f %e -o "$work/t2" python3 "$work/threads.py" "$work/c2" java -jar "$jar" sim "$relay" --iterations "$its" \
            --record "$work/run.mcap" >"$work/rec"
        echo "round $r: without $(rtf "$work/plain") ($(cat "$work/t1") s), with --record $(rtf "$work/rec") ($(cat "$work/t2") s," \
            "$(du -m "$work/run.mcap" | cut -f1) MB); second-half RTF with / without $(ratio "$(rtf "$work/rec")" "$(rtf "$work/plain")")," \
            "process wall time with / without $(ratio "$(cat "$work/t2")" "$(cat "$work/t1")")"
        echo "    CPU without: $(cat "$work/c1"); with: $(cat "$work/c2")"
        rm -f "$work/run.mcap"
    done
fi

#!/usr/bin/env bash
# The held Panda in Tandem and in MuJoCo, side by side in one sitting (issue 17's anchor).
#
# Both step the same arm: `tandem bench robot --mjcf` writes Tandem's Panda (examples/robots/panda,
# the stir scene's arm: hand and stirrer lumped into link 7) as MJCF, with the same inertias,
# frames and joint-space PD gains (MuJoCo general actuators with affine bias, implicit integrator),
# h = 2 ms, no contacts, holding the home pose from rest. MuJoCo's figure is mujoco-testspeed's
# "Time per step" (wall clock, one thread); Tandem's is `bench robot`'s median, CPU and wall.
# Rounds alternate the two so that the machine's drift hits both alike.
#
# Needs MuJoCo's samples (Debian: apt-get install -y libmujoco-dev libmujoco-samples); the build
# and the tests never do.
#
# usage: tandem-bench/mujoco/panda-side-by-side.sh [ROUNDS (3)] [MUJOCO_STEPS (200000)]
set -euo pipefail
rounds=${1:-3}
steps=${2:-200000}
root="$(cd "$(dirname "$0")/../.." && pwd)"
if ! command -v mujoco-testspeed > /dev/null; then
    echo "panda-side-by-side: mujoco-testspeed not found; install it: apt-get install -y libmujoco-dev libmujoco-samples" >&2
    exit 2
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$root/tandem" bench robot --mjcf "$work/panda_hold.xml" > /dev/null
for r in $(seq 1 "$rounds"); do
    t=$("$root/tandem" bench robot --scenario panda --json)
    m=$(mujoco-testspeed "$work/panda_hold.xml" "$steps" 1 0 | sed -n 's/^ *Time per step *: *\([0-9.]*\) ms/\1/p')
    cpu=$(sed -n 's/.*"us_per_step":\([0-9.]*\).*/\1/p' <<< "$t")
    wall=$(sed -n 's/.*"wall_us_per_step":\([0-9.]*\).*/\1/p' <<< "$t")
    mu=$(awk -v ms="$m" 'BEGIN { printf "%.3f", ms * 1000 }')
    echo "{\"round\":$r,\"tandem_cpu_us_per_step\":$cpu,\"tandem_wall_us_per_step\":$wall,\"mujoco_wall_us_per_step\":$mu}"
done

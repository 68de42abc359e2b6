#!/bin/bash
# everymach (issue #23 items 5 and 8) on the GPU machine's 16-core host, for the
# lead: clmeter's compute peaks on PoCL (platform 0) against clpeak 2.1.2 in
# alternating rounds, the instructions PoCL made of the compute kernel, and
# make bench's cache-exit row. Run from the repository root, with
# .device/{clmeter,bench,rawlaunch,progbin} built from this branch (or main
# after the merge) and .device/peers/clpeak (2.1.2):
#   bash .device-free dp      # fp64, 5 rounds each, alternating (about 4 min)
#   bash .device-free types   # fp32, int, short, char, 2 rounds each (about 4 min)
#   bash .device-free isa     # FMAs or multiplies and adds in the compute kernel (30 s)
#   bash .device-free exit    # the cache-exit row (under 90 s of pairs)
# Results go to $OUT/everymach (summary.txt: one line a run, then the ratios).
. .device/opencl-env.sh >/dev/null
B=$PWD/.device; R=$OUT/everymach; mkdir -p "$R"
export CLMETER_CACHE_DIR=/tmp/clm-cache CLMETER_PROFILE_DIR=/tmp/clm-prof
S=$(date +%s); el() { echo "[$(( $(date +%s)-S ))s] $*" >> "$R/log.txt"; }
lscpu > "$R/lscpu.txt" 2>&1

# clpeak's best width a type (GFLOPS or GIOPS), from its text output.
cpbest() { awk -v tag="$1" '/:/ && $1 ~ /^(float|double|int|short|char)[0-9]*$/ {t=$1; sub(/[0-9]+$/,"",t); if ($3+0>m[t]) m[t]=$3} END{for (t in m) print tag, "clpeak", t, m[t]}'; }
# clmeter's peak figures (the best median a type), from its CSV output.
clmbest() { awk -F, -v tag="$1" '$1=="figure" && $27 ~ /^peak .* compute$/ {split($27,a," "); print tag, "clmeter", a[2], $28}'; }

rounds() { # rounds N CLPEAK_FLAGS CLMETER_FILTER NAME
	local n=$1 flags=$2 filter=$3 name=$4
	for i in $(seq "$n"); do
		for who in clpeak clmeter; do
			[ $((i % 2)) = 0 ] && who=$([ $who = clpeak ] && echo clmeter || echo clpeak)
			if [ $who = clpeak ]; then
				timeout 120 "$B/peers/clpeak" --cl-platform 0 --cl-device 0 $flags > "$R/clpeak-$name-$i.txt" 2>&1
				el "clpeak $name $i rc=$?"
				cpbest "round$i" < "$R/clpeak-$name-$i.txt" >> "$R/summary.txt"
			else
				timeout 200 "$B/clmeter" suite peaks --device cpu --filter "$filter" --no-profile --format csv > "$R/clm-$name-$i.csv" 2> "$R/clm-$name-$i.err"
				el "clmeter $name $i rc=$?"
				clmbest "round$i" < "$R/clm-$name-$i.csv" >> "$R/summary.txt"
			fi
		done
	done
}

# Per type: the median of the rounds of each tool, their ranges and the ratio.
ratios() {
	awk '{v[$2" "$3]=v[$2" "$3]" "$4} END{for (k in v) print k, v[k]}' "$R/summary.txt" | sort | awk '
	function med(s,   a, n, i, j, t) { n = split(s, a, " "); for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j]+0 < a[i]+0) { t = a[i]; a[i] = a[j]; a[j] = t }
		lo = a[1]; hi = a[n]; return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2 }
	{ who = $1; typ = $2; $1 = ""; $2 = ""; m[who" "typ] = med($0); r[who" "typ] = lo "-" hi; types[typ] = 1 }
	END { for (t in types) if (m["clpeak "t] > 0) printf "%s: clmeter %.4g [%s], clpeak %.4g [%s]: %.2fx\n", t, m["clmeter "t], r["clmeter "t], m["clpeak "t], r["clpeak "t], m["clmeter "t] / m["clpeak "t] }' > "$R/ratios.txt"
	cat "$R/ratios.txt"
}

case "$1" in
dp)
	rounds 5 --double-precision-compute 'compute.*double' dp
	ratios ;;
types)
	rounds 2 "--single-precision-compute --integer-compute --integer-compute-char --integer-compute-short" 'compute[^/]*/(float|int|short|char)(/|$)' types
	ratios ;;
isa)
	# The kernel PoCL compiled: one FMA a step (vfmadd) or a multiply and an add.
	rm -rf "$R/pocl-isa"
	POCL_CACHE_DIR=$R/pocl-isa timeout 120 "$B/clmeter" suite peaks --device cpu --filter 'compute/(double|float)/8$' --no-profile --no-cache --max-time 0.3s > "$R/isa-run.txt" 2>&1
	for so in $(find "$R/pocl-isa" -name 'compute.so'); do
		echo "$so: $(objdump -d "$so" 2>/dev/null | grep -c vfmadd) vfmadd, $(objdump -d "$so" 2>/dev/null | grep -cE 'vmulp[sd]') vmulps/pd, $(objdump -d "$so" 2>/dev/null | grep -cE 'vaddp[sd]') vaddps/pd"
	done | tee "$R/isa.txt" ;;
exit)
	timeout 200 "$B/bench" -clmeter "$B/clmeter" -rawlaunch "$B/rawlaunch" -progbin "$B/progbin" -device cpu -rows cache-exit > "$R/bench-cache-exit.txt" 2> "$R/bench-cache-exit.err"
	el "bench cache-exit rc=$?"
	cat "$R/bench-cache-exit.txt" "$R/bench-cache-exit.err" ;;
*)
	echo "usage: bash .device-free dp|types|isa|exit" >&2
	exit 2 ;;
esac

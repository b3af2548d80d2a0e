#!/bin/bash
# Times a random sample of Dots-and-Boxes split tasks under a CPU limit, to project a split.
# Usage: scripts/dots_split_sample.sh QUARTET DIR [N=10] [CPU_SECONDS=30] [SEED=1]
#
# The limit is CPU time (ulimit -t), so other work on the machine does not eat the budget
# (docs/dots-split.md describes the split). DIR comes from `quartet bench dots --split CxR --depth D --out DIR`. Prints one line per
# task (CPU seconds; "done" or "stopped" at the limit) and a summary; the results of
# finished tasks are left beside their tasks as usual.
set -eu
q=$1 dir=$2 n=${3:-10} limit=${4:-30} seed=${5:-1}
total=$(find "$dir" -name '*.task' | wc -l)
sample=$(find "$dir" -name '*.task' | sort |
    awk -v s="$seed" 'BEGIN { srand(s) } { print rand() "\t" $0 }' | sort -n | cut -f2 | head -n "$n")
done_n=0 stopped=0 cpu_sum=0
for t in $sample; do
    start=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)
    if (ulimit -t "$limit"; "$q" bench dots --solve-task "$t" > /dev/null 2>&1); then
        status=done; done_n=$((done_n + 1))
    else
        status=stopped; stopped=$((stopped + 1))
    fi
    end=$(awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat)
    cpu=$(awk -v a="$start" -v b="$end" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", (b - a) / hz }')
    cpu_sum=$(awk -v a="$cpu_sum" -v b="$cpu" 'BEGIN { print a + b }')
    echo "$(basename "$t") cpu ${cpu}s $status"
done
echo "sample $n of $total tasks, limit ${limit}s CPU: $done_n done, $stopped stopped, ${cpu_sum}s CPU in all"

#!/usr/bin/env python3
"""Summarize bench/variants/s42_producer_trace.patch's PT lines: per sm90_16bit pair block and
stage q, the clocks (cycles, one SM's clock64) of the A thread after its `empty` wait (ea) and
after its issue (ia), the B thread's (eb, ib), and consumer thread 0's before and after its
`full` wait (pre, post; post negative where the slot was the partner's alone).

Per n: the issue time of each thread (e → i), the producer's wake (ea[q] against the consumer's
post of stage q − kStages + 1, after which it frees stage q − kStages's slot), the consumer's
wait on `full`, and, over the stages it waited for, the time from the later issue to the data
(post − max(ia, ib)): the load's latency as the pipeline sees it. Stages the prologue issued
(q < kStages, by another thread) have no producer clocks and are left out.
"""
import sys

from trace_stats import stats

STAGES = 6      # the ring's depth (config::kSm90Bf16.stages)
WAITED = 200    # a consumer wait this long (cycles) means the data was not there yet


def line(name, v):
    return stats(name, v, width=28)


def summarize(rows):
    blocks = {}
    for n, blk, stage, ea, ia, eb, ib, pre, post in rows:
        blocks.setdefault((n, blk), {})[stage] = (ea, ia, eb, ib, pre, post)
    for n in sorted({k[0] for k in blocks}):
        issue_a, issue_b, wake, wait, latency = [], [], [], [], []
        waited = total = 0
        for (nn, _), stages in blocks.items():
            if nn != n:
                continue
            for stage, (ea, ia, eb, ib, pre, post) in stages.items():
                if stage < STAGES or ea == 0:
                    continue
                post = abs(post)
                issue_a.append(ia - ea)
                if eb:
                    issue_b.append(ib - eb)
                freed = stages.get(stage - STAGES + 1)
                if freed:
                    wake.append(ea - abs(freed[5]))
                wait.append(post - pre)
                total += 1
                if post - pre > WAITED:
                    waited += 1
                    latency.append(post - max(ia, ib))
        print(f"n {n}: {total} stages traced, the consumer waited on {waited} "
              f"({100 * waited / max(total, 1):.0f} %)")
        print(line("A: empty to issued", issue_a))
        print(line("B: empty to issued", issue_b))
        print(line("wake (freed to A's empty)", wake))
        print(line("consumer wait on full", wait))
        print(line("issued to landed (waited)", latency))


def main(paths):
    rows, torn = [], 0
    for path in paths:
        with open(path) as f:
            for text in f:
                if text.startswith("PT "):
                    fields = text.split()[1:]
                    # printf from the device interleaves with the host's output now and then.
                    if len(fields) != 9 or not all(x.lstrip("-").isdigit() for x in fields):
                        torn += 1
                        continue
                    rows.append(tuple(int(x) for x in fields))
    if torn:
        print(f"{torn} torn PT lines skipped")
    summarize(rows)


if __name__ == "__main__":
    main(sys.argv[1:])

"""Shared by the probe-trace summaries (stage_trace_summary.py, producer_trace_summary.py): a
quantile and one line of a distribution's statistics."""
import statistics as st


def q(v, f):
    """The f-quantile of v (nearest rank), or nan for none."""
    v = sorted(v)
    return v[min(len(v) - 1, int(f * len(v)))] if v else float("nan")


def stats(name, v, width=24):
    """name, then count, median, p10, p90 and mean of v (cycles), or "none"."""
    if not v:
        return f"  {name:{width}s} none"
    return (f"  {name:{width}s} n {len(v):6d}  median {st.median(v):8.0f}  p10 {q(v, .1):8.0f}  "
            f"p90 {q(v, .9):8.0f}  mean {st.mean(v):8.0f}")

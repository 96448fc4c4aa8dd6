"""Runs `trimm bench --json` on the CPU backend and checks what outside tools rely on: a JSON
array with one object per row, each holding the documented fields, trimm's rows correct."""
import json
import subprocess
import sys

REQUIRED = {"method": str, "n": int, "dtype": str, "precision": str, "ms": float, "tflops": float,
            "speedup": float, "max_violation": (int, float), "rel_err": float}


def main(trimm):
    out = subprocess.run([trimm, "bench", "--cpu", "--sizes", "65,130", "--runs", "3", "--json"],
                         check=True, capture_output=True, text=True).stdout
    rows = json.loads(out)
    assert isinstance(rows, list) and len(rows) == 4, f"expected 4 rows, got {rows!r}"
    for row in rows:
        for field, kind in REQUIRED.items():
            assert field in row, f"row {row!r} lacks {field}"
            assert isinstance(row[field], kind) or (kind is float and isinstance(row[field], int)), \
                f"{field} = {row[field]!r} is not {kind}"
        assert row["ms"] > 0, row
        assert row["tflops"] > 0, row  # printed to 6 significant digits, not 4 decimals
        assert row["dtype"] == "fp32", row  # the CPU backend computes fp32 only
    assert sorted(r["n"] for r in rows) == [65, 65, 130, 130], rows
    trimm_rows = [r for r in rows if r["method"].startswith("trimm")]
    assert len(trimm_rows) == 2, rows
    for r in trimm_rows:
        assert r["max_violation"] <= 1.0 and r["rel_err"] <= 1e-6, f"trimm row failed its check: {r!r}"
    print(f"ok: {len(rows)} rows")


if __name__ == "__main__":
    main(sys.argv[1])

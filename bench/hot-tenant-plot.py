#!/usr/bin/env python3
"""Draws bench/hot-tenant's steps: accepted against offered, one curve per shard count, limits on and off."""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

steps_csv, png = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(steps_csv)))
panels = [
    ("creates", "shards", "One tenant's CreateProject", "shards"),
    ("lists", "shards", "One tenant's ListProjects pages of 25", "shards"),
    ("index", "index_shards", "Creates across 200 workspaces", "IndexShards"),
]
panels = [p for p in panels if any(r["scenario"] == p[0] for r in rows)]
fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 5), squeeze=False)
for ax, (scenario, key, title, label) in zip(axes[0], panels):
    curves = defaultdict(list)
    for r in rows:
        if r["scenario"] == scenario:
            limits = "limits off" if float(r["scale"]) == 0 else "limits x" + r["scale"]
            curves[(int(r[key]), limits)].append((float(r["offered_per_s"]), float(r["accepted_per_s"]),
                                                  float(r["unavailable_per_s"])))
    top = 0
    for (count, limits), points in sorted(curves.items(), key=lambda c: (c[0][1] != "limits off", c[0][0])):
        points.sort()
        xs = [p[0] for p in points]
        top = max(top, max(xs))
        style = ":" if limits == "limits off" else "-"
        ax.plot(xs, [p[1] for p in points], style, marker="o", label=f"{label} {count}, {limits}")
    ax.plot([0, top], [0, top], color="grey", linewidth=0.5, label="accepted = offered")
    ax.set_title(title)
    ax.set_xlabel("offered per second")
    ax.set_ylabel("accepted per second")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
loads = [float(r["load_1m"]) for r in rows if r.get("load_1m")]
load = f"; load average {min(loads):.1f}-{max(loads):.1f}" if loads else ""
fig.suptitle(f"oneread on the local engine with DynamoDB's partition limits (bench/hot-tenant{load})")
fig.tight_layout()
fig.savefig(png, dpi=110)
print("wrote", png)

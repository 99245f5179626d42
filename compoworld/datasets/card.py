"""The dataset card: README.md with the YAML header the Hub reads (configs, features, splits, licence)
and a body that says what the data is, how it was split and made, and where it comes from.

The card is a pure function of the build manifest (no timestamps, no local paths), so rebuilding the
same warehouse gives the same bytes and pushing it again is a no-op commit.
"""

from __future__ import annotations

import json
from typing import Any

import yaml

DISCOVER_MODE_TEXT = {
    "direct": "`direct` rows offer every namespaced tool of the environment in `tools`",
    "gateway": "`gateway` rows offer four meta-tools in `tools` (list_services, list_tools, describe_tool, call_tool): "
               "the agent discovers the services' tools and their schemas, then runs them through call_tool",
}
TITLES = {"sft": "CompoWorld SFT: verified cross-service tool-use trajectories",
          "rl": "CompoWorld RL: cross-service tool-use tasks with executable rubrics"}


def size_category(n: int) -> str:
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if n < limit:
            return label
    return "n>1M"


def licence_meta(services: list[dict[str, Any]]) -> dict[str, Any]:
    """Apache-2.0 (the project's licence) for first-party services; data derived from MCP specs keeps
    each server's own licence, so a dataset that includes compiled services is marked `other`."""
    if all(s.get("origin") != "compiled" for s in services):
        return {"license": "apache-2.0"}
    return {"license": "other", "license_name": "compoworld-mixed",
            "license_link": "LICENSE.md"}


def header(manifest: dict[str, Any], features_yaml: list[Any]) -> dict[str, Any]:
    kind = manifest["kind"]
    splits = manifest["splits"]
    total = sum(s["rows"] for s in splits.values())
    tags = ["tool-calling", "function-calling", "agents", "synthetic", "multi-turn", "trl",
            "sft" if kind == "sft" else "reinforcement-learning", "compoworld"]
    return {
        "pretty_name": TITLES[kind],
        **licence_meta(manifest["services"]),
        "language": ["en"],
        "task_categories": ["text-generation"],
        "tags": tags,
        "size_categories": [size_category(total)],
        "configs": [{"config_name": "default",
                     "data_files": [{"split": name, "path": f"data/{name}-*.parquet"} for name in splits]}],
        "dataset_info": {
            "features": features_yaml,
            "splits": [{"name": name, "num_bytes": s["bytes"], "num_examples": s["rows"]} for name, s in splits.items()],
            "download_size": sum(s["bytes"] for s in splits.values()),
            "dataset_size": sum(s["bytes"] for s in splits.values()),
        },
    }


def _table(rows: list[list[Any]], head: list[str]) -> str:
    out = ["| " + " | ".join(head) + " |", "|" + "|".join(" --- " for _ in head) + "|"]
    out += ["| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |" for r in rows]
    return "\n".join(out)


def _usage(kind: str) -> str:
    if kind == "sft":
        return (
            "```python\nfrom datasets import load_dataset\nfrom trl import SFTConfig, SFTTrainer\n\n"
            "ds = load_dataset(\"REPO_OR_DIR\")\n"
            "trainer = SFTTrainer(model=\"Qwen/Qwen3-0.6B\", train_dataset=ds[\"train\"],\n"
            "                     args=SFTConfig(assistant_only_loss=True))  # `tools` is read per row\n"
            "trainer.train()\n```\n\n"
            "Or `compoworld train sft --data REPO_OR_DIR`.")
    return (
        "```python\nfrom datasets import load_dataset\n\nds = load_dataset(\"REPO_OR_DIR\")\n"
        "row = ds[\"train\"][0]\n# rebuild the environment and score a rollout:\n"
        "from compoworld.training.environment import TaskEnvironment\n"
        "env = TaskEnvironment.for_services(row[\"services\"], row[\"discover_mode\"])()\nenv.reset(**row)\n"
        "# ... call env.<service>__<tool>(...), or env.call_tool(...) in gateway mode ...\n"
        "print(env.criteria)  # per-criterion results\n```\n\n"
        "`compoworld train grpo --data REPO_OR_DIR` runs TRL's GRPOTrainer with this environment "
        "(`environment_factory`) and the Completion-Focused Rubric Reward.")


def body(manifest: dict[str, Any], field_docs: dict[str, str]) -> str:
    kind = manifest["kind"]
    splits = manifest["splits"]
    stats = manifest.get("stats", {})
    rule = manifest["split_rule"]
    source = manifest["source"]
    services = manifest["services"]
    parts = [f"# {TITLES[kind]}", ""]
    if kind == "sft":
        parts.append(
            "Multi-turn tool-use conversations of agents that completed verified cross-service business "
            "tasks in a CompoWorld product environment (several services composed, with namespaced tools "
            "`service__tool`). Each row is one conversation in TRL's conversational format: assistant turns "
            "with `tool_calls`, `tool` messages with the results, and the environment's tool catalog in "
            "`tools`. Every kept trajectory passed the task's rubric (executable checks over the final state).")
    else:
        parts.append(
            "One row per verified cross-service task: the prompt, the tool catalog, what rebuilds the "
            "task's initial environment state (services, seed, the task's records), and the rubric, whose "
            "criteria are executable checks over the initial and final states. A trainer rolls out in the "
            "rebuilt environment and scores each rollout per criterion, e.g. with the Completion-Focused "
            "Rubric Reward (criteria weighted by their completion gap within a rollout group).")
    parts += ["", "## Counts", ""]
    parts.append(_table([[name, s["rows"], s["tasks"], f"`{s['dataset_id']}`"] for name, s in splits.items()],
                        ["split", "rows", "tasks", "content id"]))
    if stats:
        parts += ["", "Build statistics: " + ", ".join(f"{k.replace('_', ' ')} {v:,}" for k, v in stats.items()) + "."]
    parts += ["", "## Splits", "",
              f"Held out by service set: tasks that share their connected services or their whole environment "
              f"(distractors included) are grouped, and each group goes wholly to one split, so no test task "
              f"shares its service set with a train task. A group is in `test` when the hash of its key "
              f"(salt `{rule['salt']}`) falls below {rule['test_fraction']}; the SFT and RL datasets built from "
              f"one warehouse split their tasks the same way.", "", "## Fields", ""]
    parts.append(_table([[f"`{name}`", doc] for name, doc in field_docs.items()], ["column", "meaning"]))
    parts += ["", "## Usage", "", _usage(kind), "", "## How it was made", ""]
    parts.append(f"- Built by `compoworld` {manifest['code_version']} from warehouse run(s): "
                 + ", ".join(f"`{r}`" for r in source["run_ids"]) + ".")
    modes = manifest.get("discover_modes") or ["direct"]
    parts.append("- Tools: " + "; ".join(DISCOVER_MODE_TEXT[m] for m in modes) + " (column `discover_mode`).")
    if kind == "sft":
        parts.append(f"- Filters: {json.dumps(manifest['filters'])}. Identical conversations of a task are kept "
                     "once (`n_duplicates` counts the others).")
    elif manifest.get("filters"):
        parts.append(f"- Filters: {json.dumps(manifest['filters'])}.")
    for run in source.get("runs", []):
        config = run.get("config")
        parts.append(f"- Run `{run['run_id']}` ({run.get('flow') or 'pipeline'}, code {run.get('code_version') or 'unknown'})"
                     + (f": config `{json.dumps(config, sort_keys=True)}`" if config else ""))
    parts.append("- Pipeline: services -> dependency graph -> random walks -> task design and probe (the reference "
                 "solution passes every check, doing nothing fails) -> rollouts -> per-criterion scoring.")
    parts += ["", "## Provenance and licences", ""]
    parts.append("| service | domain | origin | source | licence |\n| --- | --- | --- | --- | --- |")
    for s in services:
        src = (f"{s.get('collection', '')} `{s.get('spec_id', '')}` {s.get('repository', '')}".strip()
               if s.get("origin") == "compiled" else "CompoWorld first-party")
        parts.append(f"| `{s['name']}` | {s.get('domain', '')} | {s.get('origin', '')} | {src} | {s.get('license', '')} |")
    compiled = [s for s in services if s.get("origin") == "compiled"]
    if not compiled:
        parts += ["", "No service in this dataset was compiled from the MCP specification corpus (toucan and mcpm "
                  "collections, MIT); builds that include compiled services list each server's licence here."]
    parts += ["", "First-party services, the task designs and the generated data are Apache-2.0 (the CompoWorld "
              "licence). All records are synthetic (seeded fake data), not about real people or companies."]
    if compiled:
        from compoworld.datasets.provenance import CORPUS

        parts.append("")
        parts.append("Services compiled from public MCP tool specifications keep their server's licence (column "
                     "above; tool names and descriptions in `tools` come from those specifications). The "
                     "specifications come from:")
        for c in CORPUS.values():
            parts.append(f"- [{c['name']}]({c['url']}) at `{c['revision']}`, `{c['path']}` ({c['license']})")
    return "\n".join(parts) + "\n"


def render_card(manifest: dict[str, Any], features_yaml: list[Any], field_docs: dict[str, str]) -> str:
    head = yaml.safe_dump(header(manifest, features_yaml), sort_keys=False, allow_unicode=True, width=1000)
    return f"---\n{head}---\n\n{body(manifest, field_docs)}"

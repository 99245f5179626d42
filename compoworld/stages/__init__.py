"""The factory's stages: one `Stage` object per stage (compoworld/stages/<name>.py), listed in order
in `registry.py`. Run them with `runner.run_pipeline` (in process) or the flows in `flows/`."""

"""Prefect flows: one generic flow that runs any stage of `compoworld.stages`, the pipeline that
chains them, `retry_failed`, and the deployments.

Thin by design: the work is in `compoworld.stages` (a `Stage` per stage), storage goes through
`compoworld.warehouse`; these modules only decide what runs where, when, and how often. Prefect is
imported nowhere else.
"""

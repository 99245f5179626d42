"""Prefect flows: one per stage of the factory, and the pipeline that chains them.

Thin by design: the work is in `compoworld` (see `compoworld.pipeline`), storage goes through
`compoworld.warehouse`; these modules only decide what runs where, when, and how often.
"""

-- CompoWorld warehouse: views that answer what users ask.
-- Loaded by Warehouse.connect() after the table views (see tables.sql). Views join within a
-- run (run_id is part of every join), since one task id can appear in several runs.

-- Tasks with their rubric, one row per (task, criterion).
CREATE OR REPLACE VIEW task_rubric AS
SELECT t.run_id, t.task_id, t.instruction, c.ordinal, c.criterion_id, c.kind, c.service,
       c.description, c.weight
FROM tasks t
JOIN rubric_criteria c ON c.run_id = t.run_id AND c.task_id = t.task_id;

-- Tasks with their rubric, one row per task; rubric is a list of criteria in rubric order.
CREATE OR REPLACE VIEW tasks_with_rubric AS
SELECT t.run_id, t.task_id, t.instruction, t.services_json, t.n_reference_steps,
       count(c.criterion_id) AS n_criteria,
       coalesce(
           list({'criterion_id': c.criterion_id, 'kind': c.kind, 'service': c.service,
                 'description': c.description, 'weight': c.weight}
                ORDER BY c.ordinal, c.criterion_id) FILTER (WHERE c.criterion_id IS NOT NULL),
           []
       ) AS rubric
FROM tasks t
LEFT JOIN rubric_criteria c ON c.run_id = t.run_id AND c.task_id = t.task_id
GROUP BY t.run_id, t.task_id, t.instruction, t.services_json, t.n_reference_steps;

-- Criterion results with the agent that produced the trajectory (NULL if it is not recorded).
CREATE OR REPLACE VIEW criterion_results_by_agent AS
SELECT r.*, tr.agent, tr.model
FROM criterion_results r
LEFT JOIN trajectories tr ON tr.run_id = r.run_id AND tr.trajectory_id = r.trajectory_id;

-- Pass rate per criterion kind (and agent): which kinds of requirement agents miss.
CREATE OR REPLACE VIEW pass_rate_by_kind AS
SELECT run_id, agent, kind,
       count(*) AS n_results,
       count(*) FILTER (WHERE passed) AS n_passed,
       avg(CAST(passed AS DOUBLE)) AS pass_rate,
       avg(score) AS mean_score
FROM criterion_results_by_agent
GROUP BY run_id, agent, kind;

-- Pass rate per service (and agent); service is NULL for cross-service criteria.
CREATE OR REPLACE VIEW pass_rate_by_service AS
SELECT run_id, agent, service,
       count(*) AS n_results,
       count(*) FILTER (WHERE passed) AS n_passed,
       avg(CAST(passed AS DOUBLE)) AS pass_rate,
       avg(score) AS mean_score
FROM criterion_results_by_agent
GROUP BY run_id, agent, service;

-- Reward spread per task rollout group and reward kind. Population std, as GRPO normalizes with
-- it: a group with reward_std = 0 gives no learning signal.
CREATE OR REPLACE VIEW reward_spread AS
SELECT run_id, task_id, group_id, reward_kind,
       count(*) AS n_rollouts,
       min(reward) AS reward_min,
       max(reward) AS reward_max,
       avg(reward) AS reward_mean,
       stddev_pop(reward) AS reward_std,
       min(advantage) AS advantage_min,
       max(advantage) AS advantage_max,
       stddev_pop(advantage) AS advantage_std
FROM rewards
GROUP BY run_id, task_id, group_id, reward_kind;

-- Failures by stage and reason, over all runs; resolved ones were fixed by a later retry.
CREATE OR REPLACE VIEW failures_by_stage AS
SELECT stage, reason,
       count(*) FILTER (WHERE NOT resolved) AS n_unresolved,
       count(*) FILTER (WHERE resolved) AS n_resolved,
       count(*) AS n_total,
       sum(attempts) AS attempts,
       min(error) FILTER (WHERE NOT resolved) AS example_error
FROM failures
GROUP BY stage, reason;

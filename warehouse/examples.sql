-- Queries a run's summary suggests (`compoworld sql "<query>"`), one per line.
SELECT agent, kind, round(pass_rate, 3) AS pass_rate FROM pass_rate_by_kind
SELECT * FROM reward_spread ORDER BY reward_std DESC LIMIT 5
SELECT stage, reason, n_unresolved, n_resolved FROM failures_by_stage

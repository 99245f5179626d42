-- CompoWorld warehouse: table contracts.
-- GENERATED from compoworld/warehouse.py (TABLES) by tables_sql(); tests keep the two equal.
--
-- Each table is a DuckDB view over <warehouse>/data/<table>/run=<run_id>/<part>.parquet,
-- with one row per key (the part whose path sorts last wins). JSON columns hold JSON text
-- (query them with ->> or json_extract). Every row carries run_id and config_hash.

-- runs: one row per pipeline or stage run; rewritten as the run progresses
-- key: run_id
CREATE TABLE runs (
    flow         VARCHAR,           -- the flow that started the run (pipeline, synthesize, ...)
    status       VARCHAR,           -- running | completed | failed
    code_version VARCHAR,           -- package version or git revision of the code
    seed         BIGINT,            -- root seed of the run
    config_json  VARCHAR,           -- the full validated run config [json]
    started_at   TIMESTAMPTZ,       -- when the run started (UTC)
    finished_at  TIMESTAMPTZ,       -- when the run finished (UTC); NULL while running
    run_id       VARCHAR NOT NULL,  -- the run that wrote this row (added by Warehouse.write)
    config_hash  VARCHAR            -- content hash of the stage config that produced this row
);

-- specs: MCP tool specifications that compiled services come from
-- key: run_id, spec_id
CREATE TABLE specs (
    spec_id     VARCHAR NOT NULL,  -- content hash of the normalized spec
    name        VARCHAR,           -- server/service name in the spec
    source      VARCHAR,           -- where the spec came from (path or URL)
    n_tools     BIGINT,            -- tools in the spec
    spec_json   VARCHAR,           -- the normalized spec [json]
    run_id      VARCHAR NOT NULL,  -- the run that wrote this row (added by Warehouse.write)
    config_hash VARCHAR            -- content hash of the stage config that produced this row
);

-- services: services available to compose: first-party library and compiled
-- key: run_id, service_id
CREATE TABLE services (
    service_id          VARCHAR NOT NULL,  -- name@version of the service
    name                VARCHAR NOT NULL,  -- service name (tool namespace)
    version             VARCHAR,           -- service version
    origin              VARCHAR,           -- library | compiled
    domain              VARCHAR,           -- business domain
    description         VARCHAR,           -- one-line description
    spec_id             VARCHAR,           -- specs.spec_id it was compiled from; NULL for library services
    n_tools             BIGINT,            -- number of tools
    n_world_model_tools BIGINT,            -- tools implemented by the cached LLM world model
    definition_json     VARCHAR,           -- compiled definition or library metadata [json]
    run_id              VARCHAR NOT NULL,  -- the run that wrote this row (added by Warehouse.write)
    config_hash         VARCHAR            -- content hash of the stage config that produced this row
);

-- tools: one row per tool of a service
-- key: run_id, tool_id
CREATE TABLE tools (
    tool_id             VARCHAR NOT NULL,  -- namespaced tool name (service__tool)
    service_id          VARCHAR,           -- services.service_id
    service             VARCHAR NOT NULL,  -- service name
    name                VARCHAR NOT NULL,  -- tool name without the service namespace
    description         VARCHAR,           -- tool description
    kind                VARCHAR,           -- deterministic | world_model
    read_only           BOOLEAN,           -- MCP readOnlyHint
    destructive         BOOLEAN,           -- MCP destructiveHint
    idempotent          BOOLEAN,           -- MCP idempotentHint
    input_schema_json   VARCHAR,           -- JSON schema of the arguments [json]
    output_schema_json  VARCHAR,           -- JSON schema of the result [json]
    semantic_types_json VARCHAR,           -- semantic type of each parameter and output field [json]
    fidelity            VARCHAR,           -- faithful | structural | simulated: does the tool do what its spec says (fidelity checks)
    run_id              VARCHAR NOT NULL,  -- the run that wrote this row (added by Warehouse.write)
    config_hash         VARCHAR            -- content hash of the stage config that produced this row
);

-- service_checks: results of verifying a service (one row per check)
-- key: run_id, check_id
CREATE TABLE service_checks (
    check_id    VARCHAR NOT NULL,  -- chk_ + content hash of (service_id, position, tool, check_name)
    service_id  VARCHAR,           -- services.service_id
    service     VARCHAR NOT NULL,  -- service name
    check_name  VARCHAR NOT NULL,  -- which check (schema, determinism, rollback, ...)
    passed      BOOLEAN NOT NULL,  -- whether the check passed
    detail      VARCHAR,           -- what failed, or a short summary; starts with '[skip]' when the check was skipped (passed is false)
    run_id      VARCHAR NOT NULL,  -- the run that wrote this row (added by Warehouse.write)
    config_hash VARCHAR            -- content hash of the stage config that produced this row
);

-- graph_edges: service dependency graph: A -> B when A produces a value B consumes
-- key: run_id, edge_id
CREATE TABLE graph_edges (
    edge_id       VARCHAR NOT NULL,  -- src_tool>dst_tool:semantic_type
    graph_id      VARCHAR,           -- graph_ + content hash of the graph's edge ids
    src_service   VARCHAR NOT NULL,  -- producing service
    src_tool      VARCHAR,           -- producing tool
    dst_service   VARCHAR NOT NULL,  -- consuming service
    dst_tool      VARCHAR,           -- consuming tool
    semantic_type VARCHAR NOT NULL,  -- semantic type of the value that flows
    src_role      VARCHAR,           -- role of the value where it is produced (employee, customer_contact, deal_amount, ...; '' generic)
    dst_role      VARCHAR,           -- role of the field that consumes it; the edge exists because the roles fit a hand-off
    run_id        VARCHAR NOT NULL,  -- the run that wrote this row (added by Warehouse.write)
    config_hash   VARCHAR            -- content hash of the stage config that produced this row
);

-- walks: walks drawn over the dependency graph: each task's candidates, in the order they are tried
-- key: run_id, walk_id
CREATE TABLE walks (
    walk_id          VARCHAR NOT NULL,  -- content hash of the draw (task index, attempt, walk, world)
    task_index       BIGINT NOT NULL,   -- the task (index in its run) the walk was drawn for
    attempt          BIGINT NOT NULL,   -- position among the task's draws; the designer tries them in order
    graph_id         VARCHAR,           -- graph_edges.graph_id walked
    seed             BIGINT,            -- root seed of the run
    world            BIGINT,            -- seed of the world the task is designed in
    length           BIGINT,            -- length of the visit sequence
    services_json    VARCHAR,           -- selected services (list) [json]
    distractors_json VARCHAR,           -- distractor services (list) [json]
    sequence_json    VARCHAR,           -- visit sequence of services (list) [json]
    walk_json        VARCHAR,           -- the whole walk (services, distractors, visits, edge types, revisits) [json]
    run_id           VARCHAR NOT NULL,  -- the run that wrote this row (added by Warehouse.write)
    config_hash      VARCHAR            -- content hash of the stage config that produced this row
);

-- tasks: accepted cross-service tasks
-- key: run_id, task_id
CREATE TABLE tasks (
    task_id              VARCHAR NOT NULL,  -- content hash of the task
    task_index           BIGINT NOT NULL,   -- index of the task in its run (its instantiate item)
    walk_id              VARCHAR,           -- walks.walk_id of the draw it instantiates
    seed                 BIGINT,            -- environment seed
    instruction          VARCHAR,           -- the instruction given to the agent
    services_json        VARCHAR,           -- services in the environment (list, distractors included) [json]
    initial_state_json   VARCHAR,           -- initial state per service [json]
    initial_state_hash   VARCHAR,           -- canonical hash of the initial state
    reference_final_hash VARCHAR,           -- state hash the reference solution reaches
    n_reference_steps    BIGINT,            -- tool calls in the reference solution
    n_criteria           BIGINT,            -- rubric criteria
    checks_json          VARCHAR,           -- final-state and no-collateral-damage checks [json]
    difficulty           BIGINT,            -- walk length
    capabilities_json    VARCHAR,           -- capability labels the task realizes (list, from the documented set of 14) [json]
    n_reference_calls    BIGINT,            -- tool calls the reference solution makes (branches not taken excluded)
    n_report_items       BIGINT,            -- values the closing report must state
    mutants              BIGINT,            -- non-equivalent mutants of the reference replayed in the probe
    mutation_score       DOUBLE,            -- share of those mutants the rubric kills (1.0 under the default gate)
    task_json            VARCHAR,           -- the whole task record (plan, rubric, phases) [json]
    run_id               VARCHAR NOT NULL,  -- the run that wrote this row (added by Warehouse.write)
    config_hash          VARCHAR            -- content hash of the stage config that produced this row
);

-- rubric_criteria: the rubric of each task: one row per criterion
-- key: run_id, task_id, criterion_id
CREATE TABLE rubric_criteria (
    task_id      VARCHAR NOT NULL,  -- tasks.task_id
    criterion_id VARCHAR NOT NULL,  -- task_id:cN (the task, then the criterion's id within its rubric)
    ordinal      BIGINT,            -- position in the rubric
    kind         VARCHAR,           -- goal | negative (a goal the agent must reach, or a thing it must not do)
    service      VARCHAR,           -- service the criterion is about; NULL when cross-service
    description  VARCHAR,           -- what the criterion requires, in words
    weight       DOUBLE,            -- static weight, if any
    check_json   VARCHAR,           -- the executable check [json]
    reads_answer BOOLEAN,           -- the check reads the agent's closing message (a report criterion)
    run_id       VARCHAR NOT NULL,  -- the run that wrote this row (added by Warehouse.write)
    config_hash  VARCHAR            -- content hash of the stage config that produced this row
);

-- reference_steps: the reference solution of each task: one row per tool call
-- key: run_id, task_id, step
CREATE TABLE reference_steps (
    task_id        VARCHAR NOT NULL,  -- tasks.task_id
    step           BIGINT NOT NULL,   -- 0-based position
    tool           VARCHAR,           -- namespaced tool name (service__tool)
    arguments_json VARCHAR,           -- call arguments ({'$var': name} where the value is discovered) [json]
    purpose        VARCHAR,           -- lookup | write | update
    run_id         VARCHAR NOT NULL,  -- the run that wrote this row (added by Warehouse.write)
    config_hash    VARCHAR            -- content hash of the stage config that produced this row
);

-- trajectories: agent rollouts on tasks
-- key: run_id, trajectory_id
CREATE TABLE trajectories (
    trajectory_id    VARCHAR NOT NULL,  -- content hash of the rollout
    task_id          VARCHAR NOT NULL,  -- tasks.task_id
    group_id         VARCHAR,           -- rollout group (GRPO group) it belongs to
    rollout_index    BIGINT,            -- index within its group
    agent            VARCHAR,           -- agent kind (reference, perturbed, litellm, ...)
    model            VARCHAR,           -- model string, if any
    discover_mode    VARCHAR,           -- direct | gateway: every namespaced tool, or four meta-tools that discover them
    n_steps          BIGINT,            -- tool calls made
    final_state_hash VARCHAR,           -- canonical hash of the final state
    success          BOOLEAN,           -- every criterion passed
    score            DOUBLE,            -- fraction of criteria passed
    messages_json    VARCHAR,           -- OpenAI-style messages with tool calls and results [json]
    run_id           VARCHAR NOT NULL,  -- the run that wrote this row (added by Warehouse.write)
    config_hash      VARCHAR            -- content hash of the stage config that produced this row
);

-- trajectory_steps: one row per tool call of a trajectory
-- key: run_id, trajectory_id, step
CREATE TABLE trajectory_steps (
    trajectory_id    VARCHAR NOT NULL,  -- trajectories.trajectory_id
    task_id          VARCHAR,           -- tasks.task_id
    step             BIGINT NOT NULL,   -- 0-based position
    tool             VARCHAR,           -- namespaced tool name
    arguments_json   VARCHAR,           -- call arguments [json]
    observation_json VARCHAR,           -- observation returned [json]
    is_error         BOOLEAN,           -- whether the observation was an error
    run_id           VARCHAR NOT NULL,  -- the run that wrote this row (added by Warehouse.write)
    config_hash      VARCHAR            -- content hash of the stage config that produced this row
);

-- criterion_results: rubric criterion outcomes per trajectory
-- key: run_id, trajectory_id, criterion_id
CREATE TABLE criterion_results (
    trajectory_id VARCHAR NOT NULL,  -- trajectories.trajectory_id
    task_id       VARCHAR,           -- tasks.task_id
    group_id      VARCHAR,           -- rollout group
    criterion_id  VARCHAR NOT NULL,  -- rubric_criteria.criterion_id
    kind          VARCHAR,           -- goal | negative (copied from the rubric)
    service       VARCHAR,           -- service the criterion is about (copied from the rubric)
    passed        BOOLEAN NOT NULL,  -- whether it passed
    score         DOUBLE,            -- partial score in [0, 1]
    run_id        VARCHAR NOT NULL,  -- the run that wrote this row (added by Warehouse.write)
    config_hash   VARCHAR            -- content hash of the stage config that produced this row
);

-- rewards: rubric rewards and GRPO advantages per trajectory
-- key: run_id, trajectory_id, reward_kind
CREATE TABLE rewards (
    trajectory_id VARCHAR NOT NULL,  -- trajectories.trajectory_id
    task_id       VARCHAR,           -- tasks.task_id
    group_id      VARCHAR,           -- rollout group the advantage is normalized in
    rollout_index BIGINT,            -- index within its group
    reward_kind   VARCHAR NOT NULL,  -- uniform | completion_focused
    reward        DOUBLE NOT NULL,   -- rubric reward
    advantage     DOUBLE,            -- GRPO-normalized advantage within the group
    weights_json  VARCHAR,           -- criterion weights used for this group [json]
    run_id        VARCHAR NOT NULL,  -- the run that wrote this row (added by Warehouse.write)
    config_hash   VARCHAR            -- content hash of the stage config that produced this row
);

-- datasets: assembled SFT/RL datasets
-- key: run_id, dataset_id
CREATE TABLE datasets (
    dataset_id  VARCHAR NOT NULL,  -- content hash of the dataset rows
    name        VARCHAR,           -- dataset name
    kind        VARCHAR,           -- sft | rl
    split       VARCHAR,           -- split name
    n_rows      BIGINT,            -- rows in the dataset
    location    VARCHAR,           -- local folder it was written to
    pushed_to   VARCHAR,           -- Hub repo id or local Hub-layout folder; NULL if not pushed
    card_json   VARCHAR,           -- dataset card metadata [json]
    run_id      VARCHAR NOT NULL,  -- the run that wrote this row (added by Warehouse.write)
    config_hash VARCHAR            -- content hash of the stage config that produced this row
);

-- failures: items a stage could not process; resolved once a retry succeeds
-- key: run_id, stage, item_id
CREATE TABLE failures (
    stage       VARCHAR NOT NULL,  -- stage name
    item_id     VARCHAR NOT NULL,  -- id of the item that failed
    reason      VARCHAR NOT NULL,  -- failure class (exception type or a short code)
    error       VARCHAR,           -- error message
    attempts    BIGINT NOT NULL,   -- attempts made before giving up
    resolved    BOOLEAN NOT NULL,  -- a later attempt succeeded
    run_id      VARCHAR NOT NULL,  -- the run that wrote this row (added by Warehouse.write)
    config_hash VARCHAR            -- content hash of the stage config that produced this row
);

-- evaluations: held-out evaluations of an agent or checkpoint (run_id = evaluation_id)
-- key: run_id, evaluation_id
CREATE TABLE evaluations (
    evaluation_id       VARCHAR NOT NULL,  -- eval- + content hash of what was evaluated, on which tasks and how
    agent               VARCHAR,           -- agent label (kind, model and settings)
    agent_kind          VARCHAR,           -- reference | perturbed | litellm | local
    model               VARCHAR,           -- model string or spec, if any
    checkpoint          VARCHAR,           -- checkpoint folder evaluated; NULL when the agent is no checkpoint
    job_id              VARCHAR,           -- training_jobs.job_id that made the checkpoint; NULL if none
    dataset_id          VARCHAR,           -- content id of the dataset split the checkpoint was trained on
    data_revision       VARCHAR,           -- Hub revision of that dataset, or local- + a local folder's content fingerprint
    data_run_id         VARCHAR,           -- the warehouse run that dataset was built from
    split               VARCHAR,           -- the task split evaluated (test: service sets held out of training)
    discover_mode       VARCHAR,           -- direct | gateway
    n_tasks             BIGINT,            -- tasks evaluated
    group_size          BIGINT,            -- rollouts per task
    seed                BIGINT,            -- rollout seed
    success_rate        DOUBLE,            -- share of rollouts that passed every criterion
    mean_partial_credit DOUBLE,            -- mean share of criteria passed
    figures_json        VARCHAR,           -- every figure: rewards, per capability, per criterion kind, per service [json]
    run_id              VARCHAR NOT NULL,  -- the run that wrote this row (added by Warehouse.write)
    config_hash         VARCHAR            -- content hash of the stage config that produced this row
);

-- evaluation_results: one row per rollout of an evaluation
-- key: run_id, evaluation_id, task_id, rollout_index
CREATE TABLE evaluation_results (
    evaluation_id     VARCHAR NOT NULL,  -- evaluations.evaluation_id
    task_id           VARCHAR NOT NULL,  -- tasks.task_id
    rollout_index     BIGINT NOT NULL,   -- index within the task's group
    success           BOOLEAN,           -- every criterion passed
    partial_credit    DOUBLE,            -- share of criteria passed
    n_steps           BIGINT,            -- tool calls made
    failed_calls      BIGINT,            -- tool calls that returned an error
    stop_reason       VARCHAR,           -- why the episode ended (answered, max_steps, context_full, ...)
    last_message      VARCHAR,           -- the agent's last message (its closing answer, or what did not parse), to read
    capabilities_json VARCHAR,           -- the task's capability labels (list; empty when unlabelled) [json]
    criteria_json     VARCHAR,           -- per criterion: id, kind, service, passed [json]
    run_id            VARCHAR NOT NULL,  -- the run that wrote this row (added by Warehouse.write)
    config_hash       VARCHAR            -- content hash of the stage config that produced this row
);

-- training_jobs: training jobs started by compoworld train or the train stage (run_id = job_id)
-- key: run_id, job_id
CREATE TABLE training_jobs (
    job_id            VARCHAR NOT NULL,  -- content id of the job spec (kind + hash)
    kind              VARCHAR,           -- sft | grpo
    model             VARCHAR,           -- the model it started from
    status            VARCHAR,           -- completed | failed | started (not waited for)
    dataset_id        VARCHAR,           -- content id of the dataset split it trained on
    data_path         VARCHAR,           -- dataset folder or Hub repo
    data_revision     VARCHAR,           -- Hub revision of the dataset, or local- + a local folder's content fingerprint
    data_run_id       VARCHAR,           -- the warehouse run the dataset was built from
    data_split        VARCHAR,           -- the dataset split trained on
    learning_rate     DOUBLE,            -- learning rate
    max_steps         BIGINT,            -- optimizer steps asked for
    losses_json       VARCHAR,           -- SFT: loss per step; GRPO: reward (and its std) per step [json]
    loss_first        DOUBLE,            -- SFT loss at the first step
    loss_last         DOUBLE,            -- SFT loss at the last step
    seconds           DOUBLE,            -- wall time of the job
    step_seconds_json VARCHAR,           -- wall time of each step [json]
    model_dir         VARCHAR,           -- the trained checkpoint folder
    error             VARCHAR,           -- the cause of a failure
    spec_json         VARCHAR,           -- the whole job spec [json]
    run_id            VARCHAR NOT NULL,  -- the run that wrote this row (added by Warehouse.write)
    config_hash       VARCHAR            -- content hash of the stage config that produced this row
);

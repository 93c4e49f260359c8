/**
 * Infrastructure servers: PostgreSQL, logs, monitoring and Kubernetes.
 */
import type { SearchDoc } from '../dataset.js';
import { ENVS } from './vocabulary.js';
import { dateRange, longDate, makersFor, MONTHS, prompt, resource, splitFamily, template, tool, type Family } from './util.js';

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL: three databases with some tables of the same name (orders, payments, subscriptions).

const DATABASES: Record<string, string> = {
  app: 'production application database',
  analytics: 'analytics warehouse',
  billing: 'billing database',
};

const TABLES: [string, string, string, string][] = [
  ['app', 'users', 'Registered users of the product', 'id, email, name, created_at, last_login_at, status'],
  ['app', 'accounts', 'Workspaces that users belong to', 'id, name, plan, owner_user_id, created_at'],
  ['app', 'orders', 'Orders placed in the web shop, written by the checkout service', 'id, account_id, status, total_cents, currency, created_at'],
  ['app', 'order_items', 'Line items of each order', 'order_id, product_id, quantity, unit_price_cents'],
  ['app', 'products', 'Product catalog', 'id, sku, name, price_cents, active'],
  ['app', 'carts', 'Open shopping carts', 'id, user_id, items, updated_at'],
  ['app', 'sessions', 'Login sessions', 'id, user_id, ip, user_agent, expires_at'],
  ['app', 'addresses', 'Shipping and billing addresses', 'id, account_id, line1, city, postal_code, country'],
  ['app', 'payments', 'Payment attempts made at checkout', 'id, order_id, provider, status, amount_cents, error_code'],
  ['app', 'refunds', 'Refunds issued for orders', 'id, payment_id, amount_cents, reason, created_at'],
  ['app', 'feature_flags', 'Feature flag overrides per account', 'flag, account_id, enabled, updated_by'],
  ['app', 'audit_log', 'Security-relevant actions by users and admins', 'id, actor_id, action, target, ip, created_at'],
  ['app', 'api_keys', 'API keys issued to customers', 'id, account_id, hashed_key, scopes, last_used_at, revoked_at'],
  ['app', 'subscriptions', 'Current plan of each workspace as seen by the product', 'account_id, plan, seats, trial_ends_at'],
  ['app', 'notifications', 'In-app notifications', 'id, user_id, type, read_at, created_at'],
  ['analytics', 'orders', 'Cleaned order facts loaded nightly from the app database, revenue converted to USD', 'order_id, customer_id, order_date, revenue_usd, channel, country'],
  ['analytics', 'order_items', 'Order line facts with product category', 'order_id, product_id, category, quantity, revenue_usd'],
  ['analytics', 'customers', 'One row per customer with segment and lifetime value', 'customer_id, segment, country, first_order_date, ltv_usd'],
  ['analytics', 'daily_revenue', 'Revenue per day and product line', 'day, product_line, revenue_usd, orders'],
  ['analytics', 'web_sessions', 'Website sessions from the tracking pipeline', 'session_id, user_id, started_at, landing_page, utm_source'],
  ['analytics', 'marketing_campaigns', 'Marketing campaigns with spend and attribution', 'campaign_id, channel, start_date, spend_usd, attributed_signups'],
  ['analytics', 'churn_scores', 'Weekly churn probability per account from the ML model', 'account_id, week, churn_probability, top_features'],
  ['analytics', 'cohort_retention', 'Share of customers still active N months after signup, per signup month', 'cohort_month, months_since_signup, active_customers, retention_rate'],
  ['analytics', 'funnel_steps', 'Signup funnel conversion per step and day', 'day, step, users, conversion_rate'],
  ['analytics', 'ab_test_assignments', 'Experiment variant assigned to each user', 'experiment_id, user_id, variant, assigned_at'],
  ['billing', 'invoices', 'Invoices sent to customers', 'id, customer_id, number, status, total_cents, due_date'],
  ['billing', 'invoice_lines', 'Line items of invoices', 'invoice_id, description, quantity, amount_cents, tax_rate_id'],
  ['billing', 'subscriptions', 'Billing subscriptions with plan, interval and renewal date', 'id, customer_id, plan_id, interval, status, current_period_end'],
  ['billing', 'plans', 'Sellable plans and their prices', 'id, name, interval, price_cents, currency'],
  ['billing', 'payments', 'Card and bank payments collected against invoices', 'id, invoice_id, method, status, amount_cents, paid_at'],
  ['billing', 'credit_notes', 'Credit notes that reduce the amount due on an invoice', 'id, invoice_id, amount_cents, reason'],
  ['billing', 'tax_rates', 'VAT and sales tax rates by country and state', 'id, country, state, rate, inclusive'],
  ['billing', 'coupons', 'Discount coupons and their redemption limits', 'code, percent_off, amount_off_cents, max_redemptions, expires_at'],
  ['billing', 'dunning_attempts', 'Retries of failed subscription charges', 'id, subscription_id, attempt_number, scheduled_at, outcome, decline_code'],
];

function postgresTables(): SearchDoc[] {
  const tables = TABLES.map(([db, table, purpose, cols]) =>
    resource('postgres', `postgres://${db}/tables/${table}`, table, `${db}.${table}`, `${purpose} (${DATABASES[db]}). Columns: ${cols}.`, 'application/json'),
  );
  const schemas: [string, string, string][] = [
    ['app', 'public', 'Core product tables written by the application services'],
    ['app', 'audit', 'Append-only audit tables, retained for seven years'],
    ['analytics', 'raw', 'Raw tables copied from source systems before cleaning'],
    ['analytics', 'staging', 'Intermediate dbt models between raw and mart'],
    ['analytics', 'mart', 'Cleaned, documented tables for dashboards and analysts: orders, customers, revenue and retention'],
    ['billing', 'public', 'Invoices, subscriptions, payments and tax tables'],
  ];
  const schemaDocs = schemas.map(([db, schema, d]) =>
    resource('postgres', `postgres://${db}/schemas/${schema}`, schema, `${db} schema ${schema}`, `${d}. Lists every table and view in the ${schema} schema of the ${DATABASES[db]}.`, 'application/json'),
  );
  const views: [string, string][] = [
    ['daily_active_users', 'Distinct users with at least one session per day'],
    ['weekly_signups', 'New signups per week by acquisition channel'],
    ['monthly_recurring_revenue', 'MRR per month split into new, expansion, contraction and churned'],
    ['net_revenue_retention', 'Net revenue retention per cohort over 12 months'],
    ['active_subscriptions_by_plan', 'Count of active subscriptions per plan and interval'],
    ['top_products_30d', 'Best-selling products over the last 30 days'],
  ];
  const viewDocs = views.map(([v, d]) => resource('postgres', `postgres://analytics/views/${v}`, v, `analytics view ${v}`, `${d} (view in the analytics warehouse).`, 'application/json'));
  // Monthly partitions of the biggest event table: only the month tells them apart.
  const partitions = dateRange('2024-01-01', '2025-12-01')
    .filter((d) => d.endsWith('-01'))
    .map((d) => {
      const [y, m] = d.split('-');
      return resource(
        'postgres',
        `postgres://analytics/tables/page_views_${y}_${m}`,
        `page_views_${y}_${m}`,
        `analytics.page_views_${y}_${m}`,
        `Monthly partition of page_views for ${MONTHS[Number(m) - 1]} ${y}: one row per page view with url, referrer and session_id.`,
        'application/json',
      );
    });
  return [...tables, ...schemaDocs, ...viewDocs, ...partitions];
}

function generatedPartitions(): SearchDoc[] {
  const tables: [string, string][] = [
    ['events', 'product analytics events'], ['web_sessions', 'website sessions'], ['api_requests', 'public API requests'], ['clickstream', 'raw click events'], ['page_views', 'page views'],
  ];
  const months = dateRange('2022-01-01', '2026-12-01').filter((d) => d.endsWith('-01'));
  return tables.flatMap(([t, what]) =>
    months.map((d) => {
      const [y, m] = d.split('-');
      return resource('postgres', `postgres://analytics/tables/${t}_${y}_${m}`, `${t}_${y}_${m}`, `analytics.${t}_${y}_${m}`, `Monthly partition of ${t} for ${MONTHS[Number(m) - 1]} ${y}: ${what}.`, 'application/json');
    }),
  );
}

function postgresInterface(): SearchDoc[] {
  const { t, f, p } = makersFor('postgres');
  return [
    t('postgres://{database}/tables/{table}', 'table', 'Table schema', 'Columns, types, constraints and comments of a table.'),
    t('postgres://{database}/tables/{table}/sample{?limit}', 'table-sample', 'Table sample rows', 'The first rows of a table (default 20) to see what the data looks like.'),
    t('postgres://{database}/tables/{table}/indexes', 'table-indexes', 'Table indexes', 'Indexes defined on a table with their columns and size.'),
    t('postgres://{database}/schemas/{schema}', 'schema', 'Schema', 'Tables and views in a schema.'),
    t('postgres://{database}/views/{view}/definition', 'view-definition', 'View definition', 'The SQL text that defines a view.'),
    t('postgres://{database}/queries/slow{?min_ms}', 'slow-queries', 'Slow query log', 'Statements from pg_stat_statements whose mean execution time is above a threshold in milliseconds.'),
    t('postgres://{database}/replication', 'replication-status', 'Replication status', 'Replicas attached to the primary and how far behind each one is.'),
    f('query_sql', 'Query SQL (read-only)', 'Run a read-only SELECT statement and return the rows as JSON; writes are rejected.'),
    f('execute_sql', 'Execute SQL', 'Execute a statement that changes data or schema (INSERT, UPDATE, DELETE, DDL) inside a transaction.'),
    f('explain_query', 'Explain query', 'Show the execution plan of a SQL statement, optionally with EXPLAIN ANALYZE timings.'),
    f('list_tables', 'List tables', 'List the tables of a database and schema.'),
    f('describe_table', 'Describe table', 'Return the columns, types and constraints of a table.'),
    f('list_schemas', 'List schemas', 'List the schemas of a database.'),
    f('list_active_queries', 'List active queries', 'Show the statements running right now from pg_stat_activity with their duration.'),
    f('kill_query', 'Kill query', 'Terminate a running statement by its backend PID.'),
    f('vacuum_table', 'Vacuum table', 'Run VACUUM (optionally ANALYZE) on a table to reclaim dead tuples and refresh planner statistics.'),
    f('create_database_snapshot', 'Create database snapshot', 'Take an on-demand storage snapshot of a database instance.'),
    p('optimize_sql_query', 'Optimize SQL query', 'Suggest indexes and rewrites that make a slow SQL query faster, given the query and its plan.'),
    p('generate_sql_from_question', 'Generate SQL from question', 'Write a SQL query that answers a business question, using the warehouse schema as context.'),
    p('explain_sql_query', 'Explain SQL query', 'Explain in plain language what a SQL query does and what each join and filter is for.'),
    p('design_database_schema', 'Design database schema', 'Propose tables, keys and indexes for a new feature from its requirements.'),
    p('write_sql_migration', 'Write SQL migration', 'Write forward and rollback migration scripts for a schema change.'),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// logs

const LOG_SERVICES = ['api-gateway', 'payments-api', 'auth-service', 'search-service', 'notification-service', 'web-frontend', 'worker', 'nginx', 'postgres', 'kafka'];

/** Infrastructure components do not log HTTP requests; their files say what they do contain. */
const LOG_FORMAT: Record<string, string> = {
  nginx: 'access and error log lines with client IP, method, path, status and upstream time',
  postgres: 'server log with slow statements, lock waits, checkpoints and connection errors',
  kafka: 'broker log with partition leadership changes, ISR shrinks and request errors',
  worker: 'JSON lines with job id, queue, attempt, duration and error',
};

function logFile(env: string, service: string, date: string): SearchDoc {
  return resource(
    'logs',
    `logs://${env}/${service}/${date}.log`,
    `${service}/${date}.log`,
    `${service} ${env} log ${date}`,
    `${service} logs from ${env} for ${longDate(date)} (UTC): ${LOG_FORMAT[service] ?? 'JSON lines with timestamp, level, request_id, route, status and latency'}.`,
    'text/plain',
  );
}

/** Eleven days around the dates the questions ask about, for the three busiest services: only the date or env differs. */
function nearbyLogs(): SearchDoc[] {
  return ENVS.flatMap((env) => LOG_SERVICES.slice(0, 3).flatMap((s) => dateRange('2025-03-10', '2025-03-20').map((d) => logFile(env, s, d))));
}

function generatedLogs(): SearchDoc[] {
  const days = dateRange('2024-01-01', '2025-12-31');
  return ENVS.flatMap((env) => LOG_SERVICES.flatMap((s) => days.map((d) => logFile(env, s, d))));
}

function logsInterface(): SearchDoc[] {
  return [
    template('logs', 'logs://{env}/{service}/{date}.log', 'daily-log', 'Daily log file', 'The log file of one service in one environment for one day (YYYY-MM-DD, UTC).'),
    template('logs', 'logs://{env}/{service}/errors{?since,until}', 'service-errors', 'Service errors', 'Only the ERROR and FATAL lines of a service between two timestamps.'),
    template('logs', 'logs://{env}/requests/{request_id}', 'request-trace-logs', 'Logs of one request', 'Every log line carrying one request id, across all services.'),
    tool('logs', 'search_logs', 'Search logs', 'Full-text and field search over log lines across services and environments within a time range.'),
    tool('logs', 'tail_logs', 'Tail logs', 'Stream the newest log lines of a service as they are written.'),
    tool('logs', 'get_log_volume', 'Get log volume', 'Number of log lines per level and service over time, to spot spikes.'),
    tool('logs', 'create_log_based_metric', 'Create log-based metric', 'Define a metric that counts log lines matching a filter.'),
    tool('logs', 'list_log_services', 'List log services', 'List the services and environments that ship logs.'),
    prompt('logs', 'explain_stack_trace', 'Explain stack trace', 'Explain an exception stack trace: where it was thrown, the likely cause and how to fix it.'),
    prompt('logs', 'explain_error_log', 'Explain error log', 'Group a batch of error log lines by cause and suggest next steps for each group.'),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// monitoring (Grafana dashboards, Prometheus alert rules, on-call)

const DASH_SERVICES = ['api-gateway', 'payments-api', 'auth-service', 'search-service', 'checkout', 'kafka', 'postgres', 'redis'];
/** Board name -> [what it shows for an HTTP service, what it shows for a datastore]. */
const DASH_BOARDS: [string, string, string][] = [
  ['overview', 'request rate, error rate, latency and saturation at a glance', 'throughput, connections, replication and saturation at a glance'],
  ['latency', 'p50, p95 and p99 latency per route and per upstream dependency', 'p50, p95 and p99 operation latency per client and command'],
  ['errors', '4xx and 5xx rates, the top failing routes and exception counts', 'errors, rejected connections and timeouts per client'],
];
const DATASTORES = ['kafka', 'postgres', 'redis'];

function dashboards(): SearchDoc[] {
  return ENVS.flatMap((env) =>
    DASH_SERVICES.flatMap((s) =>
      DASH_BOARDS.map(([board, http, store]) =>
        resource('monitoring', `monitoring://dashboards/${env}/${s}-${board}`, `${s}-${board}`, `${s} ${board} (${env})`, `Grafana dashboard for ${s} in ${env}: ${DATASTORES.includes(s) ? store : http}.`, 'application/json'),
      ),
    ),
  );
}

const ALERT_RULES: [string, string, string][] = [
  ['HighErrorRate', 'the 5xx ratio is above 2% for 5 minutes', 'critical'],
  ['HighLatencyP99', 'p99 latency is above 1.5 s for 10 minutes', 'warning'],
  ['KafkaConsumerLagHigh', 'a consumer group is more than 100k messages behind', 'warning'],
  ['DiskSpaceLow', 'a volume has less than 10% free space', 'warning'],
  ['PodCrashLooping', 'a pod restarted more than 5 times in 15 minutes', 'critical'],
  ['CertificateExpiringSoon', 'a TLS certificate expires in less than 14 days', 'warning'],
  ['PostgresReplicationLag', 'a read replica is more than 30 seconds behind the primary', 'critical'],
  ['RedisMemoryHigh', 'Redis memory usage is above 90% of maxmemory', 'warning'],
  ['QueueBacklogGrowing', 'a job queue has grown for 30 minutes straight', 'warning'],
  ['SLOBurnRateFast', 'the error budget burns 14 times faster than allowed', 'critical'],
  ['NodeNotReady', 'a Kubernetes node is NotReady for 5 minutes', 'critical'],
  ['PaymentsWebhookFailures', 'more than 1% of payment provider webhooks fail', 'critical'],
];

function alertRules(): SearchDoc[] {
  return ENVS.flatMap((env) =>
    ALERT_RULES.map(([name, when, sev]) =>
      resource('monitoring', `monitoring://alerts/${env}/${name}`, name, `${name} (${env})`, `Prometheus alert rule in ${env}: fires when ${when}. Severity ${sev}; routes to the owning team’s on-call.`, 'application/yaml'),
    ),
  );
}

function monitoringInterface(): SearchDoc[] {
  const { t, f, p } = makersFor('monitoring');
  return [
    t('monitoring://dashboards/{env}/{dashboard}', 'dashboard', 'Dashboard', 'A Grafana dashboard definition with its panels and queries.'),
    t('monitoring://alerts/{env}/{alert_name}', 'alert-rule', 'Alert rule', 'One Prometheus alert rule: expression, duration, labels and annotations.'),
    t('monitoring://slo/{service}{?window}', 'slo-status', 'SLO status', 'Current SLO attainment and remaining error budget of a service over a rolling window (default 28d).'),
    t('monitoring://metrics/{metric}{?from,to,step}', 'metric-series', 'Metric series', 'Raw time series of one metric name between two timestamps.'),
    t('monitoring://incidents/{incident_id}', 'incident', 'Incident', 'An incident record: severity, commander, status and affected services.'),
    t('monitoring://incidents/{incident_id}/timeline', 'incident-timeline', 'Incident timeline', 'Chronological log of an incident: alerts fired, status changes, messages and actions taken.'),
    f('list_alerts', 'List firing alerts', 'List the alerts that are currently firing, with severity, labels and how long they have been active.'),
    f('list_alert_rules', 'List alert rules', 'List configured alert rules and their thresholds.'),
    f('acknowledge_alert', 'Acknowledge alert', 'Acknowledge a firing alert so it stops re-notifying the on-call.'),
    f('silence_alert', 'Silence alert', 'Create a silence that suppresses notifications from matching alerts for a duration, for example during maintenance.'),
    f('query_metrics', 'Query metrics', 'Evaluate a PromQL expression over a time range and return the series.'),
    f('create_dashboard', 'Create dashboard', 'Create a Grafana dashboard from a JSON model or a list of panel queries.'),
    f('create_incident', 'Declare incident', 'Declare an incident with a severity and commander; opens a Slack channel and an incident record.'),
    f('update_incident_status', 'Update incident status', 'Move an incident to investigating, identified, monitoring or resolved.'),
    f('page_oncall', 'Page on-call', 'Send a high-urgency page to the on-call responder of a team or service.'),
    f('get_oncall_schedule', 'Get on-call schedule', 'Who is on call for a team or service now and in the coming weeks.'),
    p('summarize_incident', 'Summarize incident', 'Summarize an incident for people who were not in it: what happened, impact, current state and next steps.'),
    p('triage_alert', 'Triage alert', 'Given a firing alert, suggest likely causes, the dashboards and logs to check first and whether to escalate.'),
    p('incident_status_update', 'Incident status update', 'Write a short customer-facing status page update for an ongoing incident.'),
    p('explain_metric_anomaly', 'Explain metric anomaly', 'Look at a metric that changed suddenly and list plausible explanations to check.'),
    p('capacity_planning', 'Capacity planning', 'Project resource usage growth from historical metrics and recommend when to scale.'),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Kubernetes

const CLUSTERS: [string, string, string][] = [
  ['prod-eu-west-1', 'production', 'EU (Ireland)'],
  ['prod-us-east-1', 'production', 'US East (N. Virginia)'],
  ['staging-eu-west-1', 'staging', 'EU (Ireland)'],
  ['dev-us-east-1', 'development', 'US East (N. Virginia)'],
];
const WORKLOADS: [string, string][] = [
  ['payments', 'payments-api'], ['payments', 'ledger-worker'], ['identity', 'auth-service'], ['search', 'search-service'],
  ['web', 'web-frontend'], ['platform', 'api-gateway'], ['notifications', 'notification-service'], ['data', 'airflow-scheduler'],
];

function k8sWorkloads(): SearchDoc[] {
  return CLUSTERS.flatMap(([c, env, region]) =>
    WORKLOADS.flatMap(([ns, name]) => [
      resource('k8s', `k8s://clusters/${c}/namespaces/${ns}/deployments/${name}`, name, `deployment/${name} (${c})`, `Deployment ${name} in namespace ${ns} on cluster ${c} (${env}, ${region}): replicas, image tag, rollout status and resource limits.`, 'application/yaml'),
      resource('k8s', `k8s://clusters/${c}/namespaces/${ns}/horizontalpodautoscalers/${name}`, name, `hpa/${name} (${c})`, `HorizontalPodAutoscaler for ${name} on cluster ${c} (${env}, ${region}): min and max replicas and CPU and memory targets.`, 'application/yaml'),
    ]),
  );
}

function generatedK8s(): SearchDoc[] {
  const kinds: [string, string, (n: string) => string, string][] = [
    ['configmaps', 'configmap', (n) => `${n}-config`, 'Configuration values mounted into the pods'],
    ['services', 'service', (n) => n, 'ClusterIP service and ports in front of the pods'],
    ['ingresses', 'ingress', (n) => n, 'Ingress rules, hostnames and TLS secret'],
    ['networkpolicies', 'networkpolicy', (n) => `${n}-allow`, 'Which namespaces may reach the pods'],
    ['poddisruptionbudgets', 'pdb', (n) => n, 'How many pods may be down during voluntary disruptions'],
  ];
  return CLUSTERS.flatMap(([c, env]) =>
    WORKLOADS.flatMap(([ns, name]) =>
      kinds.map(([plural, short, nameOf, d]) =>
        resource('k8s', `k8s://clusters/${c}/namespaces/${ns}/${plural}/${nameOf(name)}`, nameOf(name), `${short}/${nameOf(name)} (${c})`, `${d} for ${name} on ${c} (${env}).`, 'application/yaml'),
      ),
    ),
  );
}

function k8sInterface(): SearchDoc[] {
  const { t, f } = makersFor('k8s');
  return [
    t('k8s://clusters/{cluster}/namespaces/{namespace}/deployments/{deployment}', 'deployment', 'Deployment', 'A deployment manifest and its current rollout status.'),
    t('k8s://clusters/{cluster}/namespaces/{namespace}/pods', 'pods', 'Pods in namespace', 'Pods in a namespace with phase, restarts and node.'),
    t('k8s://clusters/{cluster}/namespaces/{namespace}/pods/{pod}/logs{?container,tail}', 'pod-logs', 'Pod logs', 'Recent stdout and stderr of a container in a pod.'),
    t('k8s://clusters/{cluster}/namespaces/{namespace}/events', 'namespace-events', 'Namespace events', 'Kubernetes events in a namespace: scheduling failures, image pull errors, OOM kills, probes failing.'),
    t('k8s://clusters/{cluster}/nodes/{node}', 'node', 'Node', 'Capacity, allocatable resources, conditions and taints of a node.'),
    f('scale_deployment', 'Scale deployment', 'Set the number of replicas of a Kubernetes deployment.'),
    f('rollout_restart', 'Rollout restart', 'Restart every pod of a deployment with a rolling restart, without changing the image.'),
    f('rollback_deployment', 'Roll back deployment', 'Roll a deployment back to its previous revision (or a given revision).'),
    f('list_pods', 'List pods', 'List pods with status, restarts and age, filtered by namespace and label selector.'),
    f('describe_pod', 'Describe pod', 'Show a pod’s spec, container states and recent events.'),
    f('apply_manifest', 'Apply manifest', 'Apply a Kubernetes YAML manifest to a cluster, like kubectl apply.'),
    f('cordon_node', 'Cordon node', 'Mark a node unschedulable so no new pods land on it.'),
    f('exec_in_pod', 'Exec in pod', 'Run a command inside a container of a running pod and return its output.'),
    f('get_rollout_status', 'Get rollout status', 'Report whether a deployment’s latest rollout has finished and how many replicas are updated.'),
    prompt('k8s', 'explain_pod_crashloop', 'Explain pod crash loop', 'Look at a pod’s events, exit codes and logs and explain why it keeps restarting.'),
    prompt('k8s', 'review_kubernetes_manifest', 'Review Kubernetes manifest', 'Review a manifest for missing limits, probes, security context and other best practices.'),
  ];
}

export const INFRA_FAMILIES: Family[] = [
  // Monthly page_views partitions of 2025 (and March 2024) are near the March 2025 one; other months are filler.
  ...splitFamily('postgres.tables', postgresTables(), (d) => !/page_views_\d{4}_\d\d$/.test(d.key) || /page_views_(2025_\d\d|2024_03)$/.test(d.key)),
  { id: 'postgres.partitions', hard: false, docs: generatedPartitions() },
  { id: 'postgres.interface', hard: true, docs: postgresInterface() },
  { id: 'logs.nearby', hard: true, docs: nearbyLogs() },
  { id: 'logs.generated', hard: false, docs: generatedLogs(), limit: 700 },
  { id: 'logs.interface', hard: true, docs: logsInterface() },
  { id: 'monitoring.dashboards', hard: true, docs: dashboards() },
  { id: 'monitoring.alert-rules', hard: true, docs: alertRules() },
  { id: 'monitoring.interface', hard: true, docs: monitoringInterface() },
  // Deployments outside dev are near (only cluster and name differ); autoscalers only on the EU production cluster and for the web frontend.
  ...splitFamily('k8s.workloads', k8sWorkloads(), (d) =>
    !d.key.includes('/dev-us-east-1/') && (d.key.includes('/deployments/') || d.key.includes('prod-eu-west-1') || d.key.endsWith('/web-frontend'))),
  { id: 'k8s.generated', hard: false, docs: generatedK8s() },
  { id: 'k8s.interface', hard: true, docs: k8sInterface() },
];

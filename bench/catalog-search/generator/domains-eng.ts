/**
 * Engineering servers: GitHub, PostgreSQL, logs, monitoring, Kubernetes, API docs, Figma and the data lake.
 */
import type { SearchDoc } from '../dataset.js';
import { ENVS } from './domains-company.js';
import { dateRange, longDate, makersFor, MONTHS, pick, prompt, resource, rng, sample, splitFamily, template, titleCase, tool, type Family } from './util.js';

// ---------------------------------------------------------------------------------------------------------------
// GitHub (organisation "acme")

const REPOS: [string, string][] = [
  ['payments-api', 'Payments REST API: charges, refunds, payouts and webhooks, written in Go.'],
  ['web-frontend', 'Customer-facing web app built with Next.js and TypeScript.'],
  ['mobile-app', 'iOS and Android app built with React Native.'],
  ['infra-terraform', 'Terraform for the AWS accounts, VPCs, RDS databases and EKS clusters.'],
  ['data-pipelines', 'Airflow DAGs and dbt models that load the analytics warehouse.'],
  ['auth-service', 'OAuth2 / OpenID Connect identity provider and session service.'],
  ['search-service', 'Search API and the Elasticsearch indexing workers.'],
  ['notification-service', 'Email, SMS and push notification delivery.'],
  ['design-system', 'React component library and design tokens.'],
  ['sdk-python', 'Official Python SDK for the public API.'],
  ['sdk-js', 'Official JavaScript and TypeScript SDK for the public API.'],
  ['docs-site', 'Source of the public developer documentation site.'],
  ['ml-models', 'Training and evaluation code for the churn and fraud models.'],
  ['billing-service', 'Subscriptions, invoicing and dunning service.'],
  ['api-gateway', 'Envoy-based edge gateway configuration and plugins.'],
  ['helm-charts', 'Helm charts for every service deployed to Kubernetes.'],
];

const REPO_FILES: [string, string, (repo: string) => string][] = [
  ['CONTRIBUTING.md', 'text/markdown', (r) => `How to contribute to acme/${r}: local setup, coding standards, commit conventions and the review process.`],
  ['CODEOWNERS', 'text/plain', (r) => `Code owners of acme/${r}: which team must approve changes to which paths.`],
  ['.github/workflows/ci.yml', 'application/yaml', (r) => `GitHub Actions CI workflow of acme/${r}: lint, unit tests and build on every pull request.`],
  ['.github/workflows/deploy.yml', 'application/yaml', (r) => `GitHub Actions deploy workflow of acme/${r}: builds the image, deploys to staging, then to production after approval.`],
  ['Dockerfile', 'text/plain', (r) => `Container image definition of acme/${r}.`],
  ['CHANGELOG.md', 'text/markdown', (r) => `Changelog of acme/${r}: notable changes in each released version.`],
];

function blob(repo: string, path: string, description: string, mimeType: string): SearchDoc {
  return resource('github', `github://acme/${repo}/blob/main/${path}`, path.split('/').pop() ?? path, `acme/${repo}: ${path}`, description, mimeType);
}

function repositories(): SearchDoc[] {
  const repos = REPOS.map(([repo, d]) => resource('github', `github://acme/${repo}`, `acme/${repo}`, `acme/${repo}`, `${d} README and repository metadata.`, 'text/markdown'));
  const common = REPOS.flatMap(([repo]) => REPO_FILES.map(([path, mime, describe]) => blob(repo, path, describe(repo), mime)));
  const manifests = [
    blob('web-frontend', 'package.json', 'npm manifest of the web frontend: scripts, dependencies and devDependencies (Next.js, React, Playwright).', 'application/json'),
    blob('design-system', 'package.json', 'npm manifest of the design system package: peer dependencies, build scripts and published entry points.', 'application/json'),
    blob('sdk-js', 'package.json', 'npm manifest of the JavaScript SDK: version, exports map and dependencies.', 'application/json'),
    blob('mobile-app', 'package.json', 'npm manifest of the React Native app: dependencies and native build scripts.', 'application/json'),
    blob('payments-api', 'go.mod', 'Go module definition of the payments API with pinned dependency versions.', 'text/plain'),
    blob('sdk-python', 'pyproject.toml', 'Python packaging metadata of the Python SDK: version, dependencies and build backend.', 'text/plain'),
    blob('ml-models', 'pyproject.toml', 'Python project file of the ML models repo: training dependencies and tooling.', 'text/plain'),
  ];
  const specific = [
    blob('infra-terraform', 'modules/rds/main.tf', 'Terraform module for RDS PostgreSQL instances: instance class, storage, backups and parameter groups.', 'text/plain'),
    blob('infra-terraform', 'modules/rds/variables.tf', 'Input variables of the RDS Terraform module: instance size, multi-AZ, backup retention.', 'text/plain'),
    blob('infra-terraform', 'modules/eks/main.tf', 'Terraform module for EKS clusters: node groups, IAM roles and add-ons.', 'text/plain'),
    blob('infra-terraform', 'modules/vpc/main.tf', 'Terraform module for VPCs: subnets, NAT gateways and route tables.', 'text/plain'),
    blob('infra-terraform', 'envs/production/main.tf', 'Root Terraform configuration of the production AWS account.', 'text/plain'),
    blob('infra-terraform', 'envs/staging/main.tf', 'Root Terraform configuration of the staging AWS account.', 'text/plain'),
    blob('api-gateway', 'config/rate-limits.yaml', 'Per-route and per-API-key rate limit rules enforced by the edge gateway.', 'application/yaml'),
    blob('api-gateway', 'config/routes.yaml', 'Route table of the edge gateway: path prefixes and the upstream service for each.', 'application/yaml'),
    blob('api-gateway', 'config/cors.yaml', 'Allowed origins, methods and headers for cross-origin requests at the edge.', 'application/yaml'),
    blob('data-pipelines', 'dags/daily_revenue_rollup.py', 'Airflow DAG that aggregates yesterday’s orders into the daily_revenue table at 02:00 UTC.', 'text/x-python'),
    blob('data-pipelines', 'dags/hourly_events_load.py', 'Airflow DAG that loads product events from Kafka into the warehouse every hour.', 'text/x-python'),
    blob('data-pipelines', 'dags/weekly_cohort_refresh.py', 'Airflow DAG that rebuilds the cohort retention tables every Monday.', 'text/x-python'),
    blob('data-pipelines', 'models/marts/orders.sql', 'dbt model that builds the cleaned orders fact table of the warehouse.', 'text/x-sql'),
    blob('ml-models', 'churn/train.py', 'Training script of the churn prediction model: features, gradient boosting and evaluation.', 'text/x-python'),
    blob('ml-models', 'fraud/train.py', 'Training script of the fraud detection model.', 'text/x-python'),
  ];
  return [...repos, ...common, ...manifests, ...specific];
}

function issue(repo: string, n: number, state: string, labels: string, title: string, detail = ''): SearchDoc {
  return resource('github', `github://acme/${repo}/issues/${n}`, `#${n}`, `#${n} ${title}`, `Issue #${n} in acme/${repo} (${state}; labels: ${labels}). ${title}.${detail ? ' ' + detail : ''}`);
}

function pull(repo: string, n: number, state: string, title: string, detail = ''): SearchDoc {
  return resource('github', `github://acme/${repo}/pull/${n}`, `PR #${n}`, `PR #${n} ${title}`, `Pull request #${n} in acme/${repo} (${state}). ${title}.${detail ? ' ' + detail : ''}`);
}

/** Issues and PRs that the questions ask about, and a few that look like them. */
function knownIssues(): SearchDoc[] {
  return [
    issue('mobile-app', 482, 'open', 'bug, android, p1', 'App crashes on Android 14 when opening the camera', 'Reproducible on Pixel 8 and Galaxy S24 from the profile photo picker; the stack trace points at the CameraX permission callback.'),
    issue('mobile-app', 455, 'closed', 'bug, ios', 'App crashes on iOS 17 when uploading a large video'),
    issue('mobile-app', 503, 'open', 'bug, android', 'Push notifications not delivered on Android 14 after reboot'),
    issue('web-frontend', 1290, 'open', 'bug, ui', 'Dark mode toggle resets after page reload', 'The theme preference is kept in memory only and not written to localStorage.'),
    issue('web-frontend', 1302, 'open', 'enhancement, ui', 'Follow the operating system dark mode setting by default'),
    issue('payments-api', 733, 'open', 'bug, p1', 'Idempotency key ignored on retried refund requests', 'A client retry after a timeout creates a second refund instead of returning the first one.'),
    issue('payments-api', 741, 'closed', 'bug', 'Duplicate charge when the card network times out'),
    pull('billing-service', 1337, 'merged', 'Move invoice PDF generation to the new rendering service', 'Replaces wkhtmltopdf with the shared renderer and adds snapshot tests for every invoice template.'),
    pull('billing-service', 1342, 'open', 'Add VAT breakdown to invoice emails'),
    pull('infra-terraform', 905, 'merged', 'Enable deletion protection on production RDS instances', 'Sets deletion_protection = true for every production database and adds a policy check in CI.'),
    pull('infra-terraform', 911, 'open', 'Enable storage autoscaling on staging RDS instances'),
  ];
}

const ISSUE_SYMPTOMS = ['Timeout', '500 error', 'Memory leak', 'Slow response', 'Wrong currency symbol', 'Broken layout', 'Duplicate emails', 'Race condition', 'Stale cache', 'Missing translation', 'Incorrect pagination', 'Blank screen'];
const ISSUE_CONTEXTS = [
  'when exporting a large CSV', 'on the settings page', 'after the access token refreshes', 'when the user has no avatar', 'in the invoice list',
  'during bulk import', 'on Safari 17', 'when switching workspaces', 'for accounts with SSO enabled', 'under high load', 'on the search results page',
  'when a webhook is retried', 'in the admin console', 'after changing the time zone', 'for users with more than 1000 projects',
];
const DEPS = ['react', 'next', 'typescript', 'eslint', 'axios', 'lodash', 'pg', 'grpc-go', 'aws-sdk', 'pydantic', 'requests', 'terraform-provider-aws', 'envoy', 'jest', 'playwright', 'opentelemetry'];
const FEATURES = ['CSV export', 'audit log filters', 'bulk actions', 'keyboard shortcuts', 'webhook signing secrets rotation', 'retry with backoff', 'pagination cursors', 'SAML group mapping', 'per-user rate limits', 'structured logging'];

/** Thousands of plausible issues and PRs: symptom × context, dependency bumps, feature requests. */
function generatedIssuesAndPulls(): SearchDoc[] {
  const r = rng('github.generated');
  const out: SearchDoc[] = [];
  for (const [repo] of REPOS) {
    let n = 10 + Math.floor(r() * 50);
    for (let i = 0; i < 90; i++) {
      n += 1 + Math.floor(r() * 12);
      const roll = r();
      if (roll < 0.5) {
        out.push(issue(repo, n, pick(['open', 'closed'], r), 'bug', `${pick(ISSUE_SYMPTOMS, r)} ${pick(ISSUE_CONTEXTS, r)}`));
      } else if (roll < 0.65) {
        out.push(issue(repo, n, pick(['open', 'closed'], r), 'enhancement', `Add ${pick(FEATURES, r)}`));
      } else if (roll < 0.85) {
        const dep = pick(DEPS, r);
        const major = 1 + Math.floor(r() * 9);
        out.push(pull(repo, n, pick(['merged', 'open', 'closed'], r), `Bump ${dep} from ${major}.${Math.floor(r() * 10)}.0 to ${major + 1}.0.0`, 'Automated dependency update.'));
      } else {
        out.push(pull(repo, n, pick(['merged', 'open'], r), `Fix ${pick(ISSUE_SYMPTOMS, r).toLowerCase()} ${pick(ISSUE_CONTEXTS, r)}`));
      }
    }
  }
  return out;
}

function githubInterface(): SearchDoc[] {
  const { t, f, p } = makersFor('github');
  return [
    t('github://{owner}/{repo}', 'repository', 'Repository', 'A GitHub repository: README, default branch, topics and languages.'),
    t('github://{owner}/{repo}/issues/{number}', 'issue', 'Issue', 'A GitHub issue with its body, labels, assignees and state.'),
    t('github://{owner}/{repo}/issues/{number}/comments', 'issue-comments', 'Issue comments', 'All comments on a GitHub issue, oldest first.'),
    t('github://{owner}/{repo}/pull/{number}', 'pull-request', 'Pull request', 'A pull request: description, author, base and head branches, checks and review state.'),
    t('github://{owner}/{repo}/pull/{number}/files', 'pull-request-files', 'Pull request files', 'The list of files a pull request touches, with additions and deletions per file.'),
    t('github://{owner}/{repo}/pull/{number}/reviews', 'pull-request-reviews', 'Pull request reviews', 'Reviews submitted on a pull request: approvals, change requests and review comments.'),
    t('github://{owner}/{repo}/blob/{ref}/{+path}', 'file-at-ref', 'File at ref', 'Contents of a file in a repository at a branch, tag or commit.'),
    t('github://{owner}/{repo}/commits/{sha}', 'commit', 'Commit', 'One commit: message, author, parents and the patch.'),
    t('github://{owner}/{repo}/compare/{base}...{head}', 'compare', 'Compare refs', 'Commits and combined diff between two branches, tags or commits.'),
    t('github://{owner}/{repo}/releases/{tag}', 'release', 'Release', 'A published GitHub release by tag: release notes, assets and publish date.'),
    t('github://{owner}/{repo}/actions/runs/{run_id}/logs', 'workflow-run-logs', 'Workflow run logs', 'Console output of every job and step in a GitHub Actions run.'),
    t('github://{owner}/{repo}/actions/workflows/{workflow}/runs', 'workflow-runs', 'Workflow runs', 'Recent runs of one GitHub Actions workflow with status and duration.'),
    f('create_issue', 'Create issue', 'Open a new issue in a GitHub repository with title, body, labels and assignees.'),
    f('update_issue', 'Update issue', 'Edit the title, body, labels, assignees or milestone of a GitHub issue.'),
    f('close_issue', 'Close issue', 'Close a GitHub issue as completed or not planned.'),
    f('list_issues', 'List issues', 'List issues in a GitHub repository filtered by state, label, assignee or milestone.'),
    f('get_issue', 'Get issue', 'Fetch one GitHub issue by number.'),
    f('add_issue_comment', 'Comment on issue', 'Add a comment to a GitHub issue or pull request.'),
    f('create_pull_request', 'Create pull request', 'Open a pull request from a head branch into a base branch.'),
    f('list_pull_requests', 'List pull requests', 'List pull requests in a repository by state, author or base branch.'),
    f('merge_pull_request', 'Merge pull request', 'Merge a pull request using a merge commit, squash or rebase.'),
    f('request_reviewers', 'Request reviewers', 'Ask specific people or teams to review a pull request.'),
    f('search_code', 'Search code', 'Search source code across GitHub repositories with GitHub code search syntax.'),
    f('search_repositories', 'Search repositories', 'Find GitHub repositories by name, topic or description.'),
    f('get_file_contents', 'Get file contents', 'Read a file or list a directory from a GitHub repository at a given branch or commit.'),
    f('create_or_update_file', 'Create or update file', 'Commit a new or changed file to a branch of a GitHub repository.'),
    f('create_branch', 'Create branch', 'Create a new branch from an existing branch or commit.'),
    f('list_commits', 'List commits', 'List the commits of a branch with author, date and message.'),
    f('list_workflow_runs', 'List workflow runs', 'List GitHub Actions runs for a repository or workflow.'),
    f('rerun_workflow_run', 'Re-run workflow', 'Re-run a GitHub Actions workflow run, or only its failed jobs.'),
    f('create_release', 'Create release', 'Publish a GitHub release for a tag with a title and release notes.'),
    f('list_releases', 'List releases', 'List the published releases of a repository.'),
    f('fork_repository', 'Fork repository', 'Fork a repository into your account or an organisation.'),
    p('review_pull_request', 'Review pull request', 'Review a pull request diff for correctness, readability and tests, and suggest concrete changes.'),
    p('draft_release_notes', 'Draft release notes', 'Draft release notes from the pull requests merged between two tags, grouped into features, fixes and breaking changes.'),
    p('write_commit_message', 'Write commit message', 'Write a conventional commit message (type, scope, subject, body) for a staged diff.'),
    p('generate_unit_tests', 'Generate unit tests', 'Generate unit tests for a function or module, covering edge cases, in the project’s test framework.'),
    p('security_review', 'Security review', 'Review a code change for vulnerabilities: injection, broken access control, leaked secrets, unsafe deserialization.'),
    p('write_pr_description', 'Write PR description', 'Write the description of a pull request from its diff: motivation, what changed, how it was tested.'),
    p('summarize_pull_request', 'Summarize pull request', 'Explain what a pull request changes for a reader who has not seen the code.'),
    p('explain_code', 'Explain code', 'Explain what a piece of code does, step by step, for someone new to the codebase.'),
    p('suggest_refactoring', 'Suggest refactoring', 'Propose refactorings that make a module simpler without changing its behaviour.'),
    p('write_release_announcement', 'Write release announcement', 'Write a customer-facing blog post announcing a new product release.'),
    p('write_test_plan', 'Write test plan', 'Write a manual and automated test plan for a feature before it ships.'),
  ];
}

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

// ---------------------------------------------------------------------------------------------------------------
// API documentation (three API versions with the same sections)

const API_SECTIONS: [string, string, (v: string) => string][] = [
  ['authentication', 'Authentication', (v) => `How to authenticate to API ${v}: API keys, bearer tokens, test and live mode.`],
  ['pagination', 'Pagination', (v) => `Cursor pagination in API ${v}: the limit, starting_after and has_more fields.`],
  ['rate-limits', 'Rate limits', (v) => `API ${v} rate limits: requests per second per key, burst allowance, 429 responses and the Retry-After header.`],
  ['errors', 'Errors', (v) => `Error format of API ${v}: HTTP status codes, error types and codes, and which errors are safe to retry.`],
  ['idempotency', 'Idempotency', (v) => `Idempotent requests in API ${v}: sending an Idempotency-Key header so a retried POST is not applied twice.`],
  ['versioning', 'Versioning', (v) => `How API ${v} evolves: backwards-compatible changes, deprecation notices and the version header.`],
  ['webhooks/signature-verification', 'Verifying webhook signatures', (v) => `Check that a webhook really came from us in API ${v}: compute the HMAC-SHA256 of the payload with your endpoint secret and compare it to the signature header.`],
  ['webhooks/event-types', 'Webhook event types', (v) => `Every webhook event type sent by API ${v} with example payloads.`],
  ['webhooks/retries', 'Webhook retries', (v) => `Delivery retries for webhooks in API ${v}: schedule, backoff and how to replay events.`],
  ['payments/create', 'Create a payment', (v) => `POST /payments in API ${v}: request fields, responses and examples.`],
  ['payments/capture', 'Capture a payment', (v) => `Capturing a previously authorized payment in API ${v}.`],
  ['refunds/create', 'Create a refund', (v) => `POST /refunds in API ${v}: full and partial refunds and their statuses.`],
  ['customers/create', 'Create a customer', (v) => `POST /customers in API ${v}: fields, metadata and examples.`],
  ['subscriptions/cancel', 'Cancel a subscription', (v) => `Cancel a subscription in API ${v}, immediately or at period end, with proration rules.`],
  ['payouts/schedule', 'Payout schedule', (v) => `How and when balances are paid out to bank accounts in API ${v}.`],
  ['disputes/respond', 'Respond to a dispute', (v) => `Submitting evidence for a chargeback dispute in API ${v}.`],
  ['changelog', 'Changelog', (v) => `Changes released within API ${v}, newest first.`],
];

function apiDocs(): SearchDoc[] {
  const sections = ['v1', 'v2', 'v3'].flatMap((v) =>
    API_SECTIONS.map(([s, title, describe]) => resource('apidocs', `docs://api/${v}/${s}`, `${v}/${s}`, `${title} (API ${v})`, describe(v), 'text/markdown')),
  );
  const guides = [
    resource('apidocs', 'docs://api/v2/migration-guide', 'v2/migration-guide', 'Migration guide v1 → v2', 'Moving an integration from API v1 to v2: renamed fields, new error format and a checklist.', 'text/markdown'),
    resource('apidocs', 'docs://api/v3/migration-guide', 'v3/migration-guide', 'Migration guide v2 → v3', 'Moving an integration from API v2 to v3: breaking changes, new pagination and a checklist.', 'text/markdown'),
  ];
  const specs = ['v1', 'v2', 'v3'].map((v) => resource('apidocs', `docs://openapi/${v}.json`, `${v}.json`, `OpenAPI spec (API ${v})`, `Machine-readable OpenAPI 3.1 description of every endpoint in API ${v}.`, 'application/json'));
  const langs: [string, string][] = [['python', 'Python'], ['node', 'Node.js'], ['go', 'Go'], ['java', 'Java'], ['ruby', 'Ruby']];
  const sdkTopics: [string, string, (l: string) => string][] = [
    ['installation', 'Installation', (l) => `Install the ${l} SDK with the package manager and check supported ${l} versions.`],
    ['quickstart', 'Quickstart', (l) => `Quickstart for the ${l} SDK: create a client with your API key and make a first request.`],
    ['configuration', 'Configuration', (l) => `Configuring the ${l} SDK: base URL, proxies, logging and custom HTTP clients.`],
    ['retries-and-timeouts', 'Retries and timeouts', (l) => `How the ${l} SDK retries failed requests and how to change timeouts.`],
    ['pagination', 'Pagination', (l) => `Iterating over list endpoints with the ${l} SDK’s auto-pagination helpers.`],
    ['error-handling', 'Error handling', (l) => `Exception classes raised by the ${l} SDK and how to handle them.`],
  ];
  const sdk = langs.flatMap(([l, L]) => sdkTopics.map(([s, title, describe]) => resource('apidocs', `docs://sdk/${l}/${s}`, `${l}/${s}`, `${L} SDK: ${title}`, describe(L), 'text/markdown')));
  return [...sections, ...guides, ...specs, ...sdk];
}

function apiDocsInterface(): SearchDoc[] {
  return [
    template('apidocs', 'docs://api/{version}/{+section}', 'api-doc-page', 'API docs page', 'A page of the API reference by version and section path.'),
    template('apidocs', 'docs://api/{version}/endpoints/{operation_id}', 'api-operation', 'API operation reference', 'Reference for one API operation by its operationId: parameters, request body, responses and examples.'),
    template('apidocs', 'docs://sdk/{language}/{topic}', 'sdk-doc-page', 'SDK docs page', 'A page of an SDK’s documentation by language and topic.'),
    tool('apidocs', 'search_api_docs', 'Search API docs', 'Full-text search over the API reference and guides; returns page paths and snippets.'),
    tool('apidocs', 'validate_openapi_spec', 'Validate OpenAPI spec', 'Lint an OpenAPI document and report schema errors and style violations.'),
    tool('apidocs', 'generate_sdk_snippet', 'Generate SDK snippet', 'Produce a ready-to-run code snippet calling an endpoint in a chosen SDK language.'),
    tool('apidocs', 'list_api_versions', 'List API versions', 'List API versions with release and sunset dates.'),
    prompt('apidocs', 'write_api_docs', 'Write API docs', 'Write reference documentation for an endpoint from its OpenAPI definition: parameters, examples and errors.'),
    prompt('apidocs', 'write_user_guide', 'Write user guide', 'Write a task-oriented how-to guide for end users of a feature.'),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Figma

function figmaFiles(): SearchDoc[] {
  const f = (path: string, title: string, d: string) => resource('design', `figma://files/${path}`, path.split('/')[1], title, d, 'application/json');
  return [
    f('mobile/onboarding-flow-v1', 'Mobile onboarding flow v1', 'First version of the mobile onboarding screens, shipped in 2023. Archived.'),
    f('mobile/onboarding-flow-v2', 'Mobile onboarding flow v2', 'Current mobile onboarding: welcome carousel, account creation, permissions and first project.'),
    f('mobile/onboarding-flow-v3', 'Mobile onboarding flow v3 (exploration)', 'Exploration of a shorter mobile onboarding with social sign-in; not approved yet.'),
    f('web/onboarding-flow-v2', 'Web onboarding flow v2', 'Web sign-up and workspace setup screens matching the mobile v2 onboarding.'),
    f('web/checkout-redesign-2024', 'Web checkout redesign 2024', 'Checkout pages redesigned in 2024: cart, address, payment and confirmation.'),
    f('web/checkout-redesign-2025', 'Web checkout redesign 2025', 'One-page checkout for the web shop designed in 2025, with saved cards and express pay buttons.'),
    f('mobile/checkout-redesign-2025', 'Mobile checkout redesign 2025', 'Mobile checkout screens designed in 2025 with Apple Pay and Google Pay.'),
    f('design-system/tokens', 'Design tokens', 'Spacing, radius, typography and elevation tokens of the design system.'),
    f('design-system/dark-mode-palette', 'Dark mode palette', 'Color tokens for the dark theme: surfaces, text, borders and accent colors with contrast ratios.'),
    f('design-system/components', 'Component library', 'Buttons, inputs, modals, tables and navigation components with variants.'),
    f('design-system/icon-library-v2', 'Icon library v2', 'Previous icon set (outline style, 24 px grid).'),
    f('design-system/icon-library-v3', 'Icon library v3', 'Current icon set with filled and outline variants on a 20 px grid.'),
    f('mobile/dark-mode-screens', 'Mobile dark mode screens', 'Every mobile app screen rendered in the dark theme for review.'),
    f('brand/app-store-screenshots-2024', 'App Store screenshots 2024', 'Screenshots and captions used on the App Store and Google Play listings in 2024.'),
    f('brand/app-store-screenshots-2025', 'App Store screenshots 2025', 'Screenshots and captions for the 2025 App Store and Google Play listings, in 8 languages.'),
    f('brand/logo-refresh-2025', 'Logo refresh 2025', 'Explorations and final files of the 2025 logo refresh.'),
    f('marketing/website-homepage-2025', 'Website homepage 2025', 'Marketing site homepage redesign with hero, social proof and pricing teaser.'),
    f('marketing/pricing-page-2025', 'Pricing page 2025', 'Public pricing page layout with plan comparison table.'),
    f('web/settings-page', 'Settings page', 'Account and workspace settings screens for the web app.'),
    f('web/analytics-dashboard', 'Analytics dashboard', 'In-product analytics dashboard with charts and filters.'),
    f('web/admin-console', 'Admin console', 'Admin screens for managing users, roles, SSO and billing.'),
    f('mobile/push-permission-prompt', 'Push permission prompt', 'Pre-permission screen that explains why the app wants to send notifications.'),
    f('email/transactional-email-templates', 'Transactional email templates', 'Layouts of receipts, password reset and invitation emails.'),
  ];
}

function figmaInterface(): SearchDoc[] {
  return [
    template('design', 'figma://files/{team}/{file}', 'figma-file', 'Figma file', 'A Figma file’s pages and frames as a tree.'),
    tool('design', 'export_figma_frame', 'Export Figma frame', 'Export a frame or node from a Figma file as PNG, SVG or PDF at a chosen scale.'),
    tool('design', 'get_figma_comments', 'Get Figma comments', 'List the comments on a Figma file with their position and resolved state.'),
    tool('design', 'post_figma_comment', 'Post Figma comment', 'Add a comment to a Figma file, optionally pinned to a frame.'),
    tool('design', 'list_figma_files', 'List Figma files', 'List files in a Figma team project.'),
    prompt('design', 'design_critique', 'Design critique', 'Give structured feedback on a UI mockup: hierarchy, clarity, consistency and usability problems.'),
    prompt('design', 'accessibility_audit', 'Accessibility audit', 'Check a design against WCAG: color contrast, focus order, touch target sizes and text alternatives.'),
    prompt('design', 'summarize_figma_comments', 'Summarize Figma comments', 'Group the open comments on a Figma file into themes and decisions needed.'),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// data lake (s3://acme-datasets)

function datasets(): SearchDoc[] {
  const d = (path: string, title: string, description: string, mime = 'application/vnd.apache.parquet') =>
    resource('datasets', `s3://acme-datasets/${path}`, path.split('/').pop() ?? path, title, description, mime);
  const churn = ['v1', 'v2', 'v3'].flatMap((v) =>
    (['train', 'validation', 'test'] as const).map((split) =>
      d(`ml/churn-training/${v}/${split}.parquet`, `Churn training data ${v} – ${split}`, `${titleCase(split)} split of the churn model dataset ${v}: one row per account-month with usage features and a churned label.`),
    ),
  );
  const fraud = ['2023', '2024', '2025'].flatMap((y) =>
    (['train', 'test'] as const).map((split) =>
      d(`ml/fraud-transactions/${y}/${split}.parquet`, `Fraud transactions ${y} – ${split}`, `${titleCase(split)} split of card transactions from ${y} labeled fraudulent or legitimate, for the fraud model.`),
    ),
  );
  const tickets = ['v1', 'v2'].map((v) =>
    d(`nlp/support-tickets-labeled/${v}/data.jsonl`, `Labeled support tickets ${v}`, `Support tickets annotated with topic and sentiment (${v === 'v1' ? '12k' : '40k'} examples), for training the ticket classifier.`, 'application/jsonl'),
  );
  const ads = ['2025', '2026'].map((y) =>
    d(`marketing/ad-spend/${y}/daily.csv`, `Daily ad spend ${y}`, `Daily advertising spend and clicks per campaign and network for ${y}.`, 'text/csv'),
  );
  const snapshots = ['2025-01-01', '2025-04-01', '2025-07-01', '2025-10-01'].map((day) =>
    d(`product/catalog-snapshots/${day}/products.parquet`, `Product catalog snapshot ${day}`, `Full copy of the product catalog as of ${longDate(day)}.`),
  );
  return [...churn, ...fraud, ...tickets, ...ads, ...snapshots];
}

function generatedDatasets(): SearchDoc[] {
  const sets: [string, string][] = [
    ['product/events-daily', 'product analytics events'], ['web/sessions-daily', 'website sessions'], ['billing/invoices-daily', 'invoices issued'],
    ['support/tickets-daily', 'support tickets created'], ['marketing/leads-daily', 'marketing leads'], ['ops/deploys-daily', 'production deploys'],
  ];
  const r = rng('datasets.generated');
  const days = dateRange('2024-01-01', '2025-12-31');
  return sets.flatMap(([path, what]) =>
    sample(days, 60, r).map((day) =>
      resource('datasets', `s3://acme-datasets/${path}/${day}.parquet`, `${day}.parquet`, `${path} ${day}`, `Daily extract of ${what} for ${longDate(day)}.`, 'application/vnd.apache.parquet'),
    ),
  );
}

function datasetsInterface(): SearchDoc[] {
  return [
    template('datasets', 'datasets://{dataset}/schema', 'dataset-schema', 'Dataset schema', 'Column names, types and descriptions of a dataset in the data catalog.'),
    template('datasets', 'datasets://{dataset}/versions', 'dataset-versions', 'Dataset versions', 'Published versions of a dataset with row counts and creation dates.'),
    template('datasets', 'datasets://{dataset}/preview{?rows}', 'dataset-preview', 'Dataset preview', 'The first rows of a dataset.'),
    template('datasets', 's3://acme-datasets/{+path}', 'data-lake-object', 'Data lake object', 'Any object in the acme-datasets bucket by key.'),
    tool('datasets', 'query_dataset', 'Query dataset', 'Run a DuckDB SQL query directly over Parquet and CSV files in the data lake.'),
    tool('datasets', 'profile_dataset', 'Profile dataset', 'Compute per-column statistics of a dataset: null counts, distinct values, min, max and histograms.'),
    tool('datasets', 'upload_dataset', 'Upload dataset', 'Upload a file to the data lake and register it in the catalog.'),
    tool('datasets', 'list_datasets', 'List datasets', 'List datasets in the catalog with owner and last update.'),
    prompt('datasets', 'analyze_dataset', 'Analyze dataset', 'Explore a dataset and report notable patterns, outliers and charts worth making.'),
    prompt('datasets', 'write_data_dictionary', 'Write data dictionary', 'Write a description of every column of a table for the data catalog.'),
  ];
}

export const ENG_FAMILIES: Family[] = [
  // The file kinds and repositories the questions name are near; other repos' Dockerfiles etc. are filler.
  ...splitFamily('github.repositories', repositories(), (d) => !/\/blob\/main\/(CONTRIBUTING\.md|CODEOWNERS|\.github\/workflows\/ci\.yml|\.github\/workflows\/deploy\.yml|Dockerfile|CHANGELOG\.md)$/.test(d.key) || /acme\/(auth-service|payments-api|mobile-app)\//.test(d.key) || /(CODEOWNERS|deploy\.yml|CHANGELOG\.md)$/.test(d.key)),
  { id: 'github.known-issues', hard: true, docs: knownIssues() },
  { id: 'github.generated', hard: false, docs: generatedIssuesAndPulls(), limit: 900 },
  { id: 'github.interface', hard: true, docs: githubInterface() },
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
  // v2 and v3 pages, the v1 twins of the sections the questions ask about, and every SDK quickstart are near.
  ...splitFamily('apidocs.pages', apiDocs(), (d) =>
    /docs:\/\/(api\/v[23]\/|openapi\/)/.test(d.key) || /api\/v1\/(webhooks\/signature-verification|rate-limits|idempotency|authentication)$/.test(d.key) || /sdk\/(go\/|[a-z]+\/quickstart$)/.test(d.key)),
  { id: 'apidocs.interface', hard: true, docs: apiDocsInterface() },
  { id: 'design.files', hard: true, docs: figmaFiles() },
  { id: 'design.interface', hard: true, docs: figmaInterface() },
  { id: 'datasets.files', hard: true, docs: datasets() },
  { id: 'datasets.generated', hard: false, docs: generatedDatasets() },
  { id: 'datasets.interface', hard: true, docs: datasetsInterface() },
];

/**
 * GitHub (organisation "acme"): repositories, their files, issues and pull requests.
 */
import type { SearchDoc } from '../dataset.js';
import { makersFor, pick, resource, rng, splitFamily, type Family } from './util.js';

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

export const GITHUB_FAMILIES: Family[] = [
  // The file kinds and repositories the questions name are near; other repos' Dockerfiles etc. are filler.
  ...splitFamily('github.repositories', repositories(), (d) => !/\/blob\/main\/(CONTRIBUTING\.md|CODEOWNERS|\.github\/workflows\/ci\.yml|\.github\/workflows\/deploy\.yml|Dockerfile|CHANGELOG\.md)$/.test(d.key) || /acme\/(auth-service|payments-api|mobile-app)\//.test(d.key) || /(CODEOWNERS|deploy\.yml|CHANGELOG\.md)$/.test(d.key)),
  { id: 'github.known-issues', hard: true, docs: knownIssues() },
  { id: 'github.generated', hard: false, docs: generatedIssuesAndPulls(), limit: 900 },
  { id: 'github.interface', hard: true, docs: githubInterface() },
];

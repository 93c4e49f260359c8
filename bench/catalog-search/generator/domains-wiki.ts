/**
 * The company wiki: runbooks, the handbook by country, policies, ADRs, postmortems, onboarding, team spaces and
 * meeting notes.
 */
import type { SearchDoc } from '../dataset.js';
import { ENVS, TEAMS } from './vocabulary.js';
import { dateRange, longDate, prompt, resource, splitFamily, template, titleCase, tool, type Family } from './util.js';

/** [slug, title, what the procedure does]. Each exists once per environment: the classic staging-vs-prod trap. */
const RUNBOOK_TOPICS: [string, string, string][] = [
  ['postgres-failover', 'PostgreSQL failover', 'promote the streaming replica to primary and repoint PgBouncer at the new primary'],
  ['postgres-backup-restore', 'PostgreSQL backup restore', 'restore the database from the nightly base backup and replay WAL to a point in time'],
  ['redis-failover', 'Redis failover', 'fail over the Redis Sentinel group and flush stale session keys'],
  ['kafka-partition-rebalance', 'Kafka partition rebalance', 'reassign Kafka partitions across brokers after a broker is replaced'],
  ['elasticsearch-reindex', 'Elasticsearch reindex', 'rebuild the search indices with zero downtime by swapping index aliases'],
  ['api-gateway-rollback', 'API gateway rollback', 'roll back a bad API gateway release to the previous version'],
  ['payments-service-rollback', 'Payments service rollback', 'roll back the payments service and replay webhook deliveries that got stuck'],
  ['kubernetes-node-drain', 'Kubernetes node drain', 'cordon and drain a Kubernetes node before maintenance'],
  ['tls-certificate-rotation', 'TLS certificate rotation', 'replace the TLS certificates on the load balancers and ingress controllers before they expire'],
  ['dns-cutover', 'DNS cutover', 'move traffic to a new origin by lowering TTLs and switching DNS records'],
  ['cdn-cache-purge', 'CDN cache purge', 'purge cached assets from the CDN after a bad frontend deploy'],
  ['rabbitmq-queue-drain', 'RabbitMQ queue drain', 'drain and requeue messages from a stuck RabbitMQ queue'],
  ['vault-unseal', 'Vault unseal', 'unseal HashiCorp Vault after a restart using the Shamir key shares held by the key holders'],
  ['mysql-replica-rebuild', 'MySQL replica rebuild', 'rebuild a broken MySQL read replica from a fresh snapshot'],
  ['s3-bucket-restore', 'S3 bucket restore', 'restore deleted objects from a versioned S3 bucket'],
  ['disk-full-recovery', 'Disk full recovery', 'free space on a host whose root volume is full, then grow the volume'],
  ['secrets-rotation', 'Secrets rotation', 'rotate application secrets and third-party API credentials stored in Vault'],
  ['database-migration-rollback', 'Database migration rollback', 'revert a failed schema migration and bring back the previous schema version'],
];

function runbooks(): SearchDoc[] {
  return ENVS.flatMap((env) =>
    RUNBOOK_TOPICS.map(([slug, title, what]) =>
      resource(
        'wiki',
        `wiki://engineering/runbooks/${env}/${slug}.md`,
        `${env}/${slug}.md`,
        `${title} runbook (${env})`,
        env === 'production'
          ? `Production runbook: how to ${what}. Includes pre-checks, customer impact, rollback steps and who to page.`
          : `Staging runbook: how to ${what} in the staging environment; rehearse here before doing it in production.`,
        'text/markdown',
      ),
    ),
  );
}

export const COUNTRIES: [string, string][] = [
  ['us', 'the United States'], ['uk', 'the United Kingdom'], ['de', 'Germany'], ['fr', 'France'], ['in', 'India'], ['br', 'Brazil'],
];

/** Benefits that differ per country, so every page has five siblings that share all words but the country. */
const BENEFIT_TOPICS: [string, string, (country: string) => string][] = [
  ['parental-leave', 'Parental leave', (c) => `Parental leave for employees in ${c}: eligibility, number of paid weeks, top-up of statutory pay and how to tell your manager.`],
  ['sick-leave', 'Sick leave', (c) => `Sick leave rules for ${c}: paid sick days per year, when a doctor's note is needed and how to report an absence.`],
  ['pension-plan', 'Pension plan', (c) => `Pension plan for staff in ${c}: provider, employer contribution, enrollment window and vesting.`],
  ['working-hours', 'Working hours', (c) => `Working time rules in ${c}: standard weekly hours, overtime pay and time tracking requirements.`],
];

function countryHandbook(): SearchDoc[] {
  const benefits = BENEFIT_TOPICS.flatMap(([slug, title, describe]) =>
    COUNTRIES.map(([cc, country]) =>
      resource('wiki', `wiki://handbook/benefits/${cc}/${slug}.md`, `${cc}/${slug}.md`, `${title} (${country.replace(/^the /, '')})`, describe(country), 'text/markdown'),
    ),
  );
  const holidays = [2023, 2024, 2025, 2026].flatMap((year) =>
    COUNTRIES.map(([cc, country]) =>
      resource(
        'wiki',
        `wiki://handbook/holidays/${cc}-${year}.md`,
        `${cc}-${year}.md`,
        `Public holidays ${year} (${country.replace(/^the /, '')})`,
        `Public holidays observed by the office in ${country} in ${year}, plus the rules for the floating day off.`,
        'text/markdown',
      ),
    ),
  );
  return [...benefits, ...holidays];
}

function policies(): SearchDoc[] {
  const p = (slug: string, title: string, description: string) =>
    resource('wiki', `wiki://handbook/policies/${slug}.md`, `${slug}.md`, title, description, 'text/markdown');
  return [
    p('expense-policy', 'Expense policy', 'What you can expense, receipt requirements, approval limits per level and how fast reimbursements are paid out.'),
    p('travel-policy', 'Business travel policy', 'Booking business trips through the travel portal, flight class and hotel limits, and per-diem rates by city.'),
    p('remote-work-policy', 'Remote and hybrid work policy', 'Who can work remotely, the home-office stipend, and working from another country for up to 30 days a year.'),
    p('code-of-conduct', 'Code of conduct', 'Expected behaviour at work and at company events, and how to report a concern confidentially.'),
    p('security-awareness', 'Security awareness policy', 'Phishing reporting, password manager use, laptop disk encryption and screen-lock rules for all staff.'),
    p('equipment-budget', 'Equipment and hardware budget', 'Laptop refresh cycle, monitor and peripheral allowance, and how to order hardware through IT.'),
    p('oncall-compensation', 'On-call compensation', 'Weekly on-call stipend, extra pay when you are paged outside business hours, and time off in lieu after night incidents.'),
    p('performance-reviews', 'Performance review cycle', 'How the twice-yearly review works: self-review, peer feedback, calibration and the rating scale.'),
    p('promotion-process', 'Promotion process', 'How promotions are proposed, the evidence packet, the promotion committee and timelines.'),
    p('referral-bonus', 'Employee referral program', 'Referral bonus amounts per role level and when the bonus is paid after the new hire starts.'),
    p('learning-budget', 'Learning and development budget', 'Yearly allowance for courses, books and conferences, what qualifies and how to claim it.'),
    p('information-classification', 'Information classification policy', 'Public, internal, confidential and restricted data, with handling and sharing rules for each level.'),
    p('acceptable-use', 'Acceptable use policy', 'Rules for using company laptops, accounts and networks, including personal use and installing software.'),
    p('gifts-and-entertainment', 'Gifts and entertainment policy', 'Limits on accepting or giving gifts and hospitality from customers and vendors, and when to declare them.'),
    p('whistleblowing', 'Whistleblowing policy', 'How to raise serious concerns anonymously and how reporters are protected from retaliation.'),
    p('open-source-contributions', 'Open source contribution policy', 'When you may contribute to outside open source projects and which licenses need legal review.'),
  ];
}

function adrs(): SearchDoc[] {
  const list: [string, string, string, string][] = [
    ['0001', 'record-architecture-decisions', 'accepted', 'We keep architecture decision records in the wiki, one page per decision.'],
    ['0002', 'use-postgresql-as-primary-database', 'accepted', 'PostgreSQL is the default datastore for new services.'],
    ['0003', 'adopt-kafka-for-event-streaming', 'accepted', 'Domain events are published to Kafka topics owned by the producing team.'],
    ['0004', 'graphql-gateway-for-mobile-clients', 'superseded', 'Mobile apps talk to a GraphQL gateway instead of calling REST services directly.'],
    ['0005', 'monorepo-for-frontend-packages', 'accepted', 'All frontend packages live in one repository managed with pnpm workspaces.'],
    ['0006', 'feature-flags-with-launchdarkly', 'accepted', 'Feature flags are managed in LaunchDarkly rather than config files.'],
    ['0007', 'terraform-for-infrastructure', 'accepted', 'All cloud infrastructure is declared in Terraform and applied from CI.'],
    ['0008', 'opentelemetry-for-tracing', 'accepted', 'Services emit traces with the OpenTelemetry SDK to a shared collector.'],
    ['0009', 'replace-rabbitmq-with-kafka', 'accepted', 'The remaining RabbitMQ queues are migrated to Kafka to run a single messaging system.'],
    ['0010', 'multi-region-active-passive', 'accepted', 'Production runs active in eu-west-1 with a warm standby in us-east-1.'],
    ['0011', 'use-redis-for-session-storage', 'accepted', 'User sessions are stored in Redis with a 30-day sliding expiry.'],
    ['0012', 'deprecate-rest-v1-api', 'proposed', 'Version 1 of the public REST API is sunset after a 12-month notice period.'],
    ['0013', 'typescript-strict-mode-everywhere', 'accepted', 'All TypeScript projects compile with strict mode enabled.'],
    ['0014', 'move-ci-to-github-actions', 'accepted', 'CI moves from Jenkins to GitHub Actions.'],
    ['0015', 'service-mesh-evaluation', 'rejected', 'We evaluated Istio and Linkerd and chose not to adopt a service mesh for now.'],
    ['0016', 'event-sourcing-for-ledger', 'accepted', 'The payments ledger is stored as an append-only event log and projected into balances.'],
    ['0017', 'snowflake-for-analytics-warehouse', 'superseded', 'Analytics workloads move to Snowflake; later superseded by the Postgres warehouse decision.'],
    ['0018', 'kubernetes-autoscaling-policy', 'accepted', 'Every deployment defines an autoscaler with explicit min and max replicas.'],
    ['0019', 'grpc-for-internal-services', 'accepted', 'Service-to-service calls use gRPC with protobuf contracts in a shared repository.'],
    ['0020', 'api-rate-limiting-strategy', 'accepted', 'Rate limits are enforced per API key at the edge gateway with a token bucket.'],
  ];
  return list.map(([n, slug, status, why]) =>
    resource(
      'wiki',
      `wiki://engineering/adr/${n}-${slug}.md`,
      `${n}-${slug}.md`,
      `ADR ${n}: ${titleCase(slug)}`,
      `Architecture decision record (${status}). ${why} Context, options considered and consequences.`,
      'text/markdown',
    ),
  );
}

function postmortems(): SearchDoc[] {
  const list: [string, string, string][] = [
    ['2024-03-02', 'payments-latency', 'slow payment confirmations caused by a saturated connection pool'],
    ['2024-05-17', 'login-failures', 'users unable to sign in after an identity provider certificate change'],
    ['2024-07-22', 'search-index-corruption', 'search returning empty results after a corrupted Elasticsearch shard was promoted'],
    ['2024-08-30', 'checkout-errors', 'checkout failing for customers with saved cards after a frontend release'],
    ['2024-10-03', 'kafka-consumer-lag', 'delayed notifications because order consumers fell hours behind'],
    ['2024-11-14', 'payments-outage', 'a 47-minute outage of card payments after a bad database failover'],
    ['2024-11-28', 'black-friday-slowdown', 'degraded page loads during the Black Friday traffic peak'],
    ['2024-12-19', 'email-delivery-delays', 'transactional emails delayed for six hours by a provider throttle'],
    ['2025-01-09', 'dns-misconfiguration', 'api.acme.com unreachable for some regions after an incorrect DNS record change'],
    ['2025-02-20', 'payments-outage', 'card payments failing for 25 minutes because an expired API credential was not rotated'],
    ['2025-03-11', 'data-pipeline-backfill', 'dashboards showing duplicated revenue after a pipeline backfill ran twice'],
    ['2025-04-02', 'mobile-app-crash-spike', 'a crash spike on iOS after a release with a bad feature flag default'],
    ['2025-05-14', 'cdn-outage', 'static assets failing to load while the CDN provider had a regional outage'],
    ['2025-06-25', 'disk-full-postgres', 'the analytics database going read-only after its data volume filled up'],
    ['2025-08-06', 'login-failures', 'single sign-on failing for Okta customers after an SAML library upgrade'],
    ['2025-09-18', 'search-latency', 'search latency above 5 seconds after a mapping change triggered a full reindex'],
  ];
  return list.map(([date, slug, what]) =>
    resource(
      'wiki',
      `wiki://incidents/postmortems/${date}-${slug}.md`,
      `${date}-${slug}.md`,
      `Postmortem ${date}: ${titleCase(slug)}`,
      `Postmortem for the incident of ${longDate(date)}: ${what}. Timeline, root cause, impact and action items.`,
      'text/markdown',
    ),
  );
}

function onboarding(): SearchDoc[] {
  const o = (slug: string, title: string, description: string) =>
    resource('wiki', `wiki://onboarding/${slug}.md`, `${slug}.md`, title, description, 'text/markdown');
  return [
    o('first-week', 'Your first week', 'What happens in your first week: welcome session, buddy, HR paperwork and who to meet.'),
    o('dev-environment-setup', 'Development environment setup', 'Set up your laptop for engineering work: Homebrew, Docker, access to GitHub, the VPN and running services locally.'),
    o('accounts-and-access', 'Accounts and access', 'Which accounts you get on day one (Google, Slack, Okta) and how to request access to other systems.'),
    o('engineering-principles', 'Engineering principles', 'How we build software: small pull requests, tests, code review expectations and on-call ownership.'),
    o('glossary', 'Company glossary', 'Acronyms and internal names you will hear in your first months.'),
    o('benefits-overview', 'Benefits overview', 'Summary of benefits for new hires with links to the country-specific handbook pages.'),
  ];
}

/** Team spaces: every team has the same kinds of pages, so 'onboarding' or 'roadmap' alone never identifies one. */
const TEAM_TOPICS: [string, string, (team: string) => string][] = [
  ['architecture-overview', 'Architecture overview', (t) => `Architecture of the ${t} team's services: components, data flows and external dependencies.`],
  ['oncall-handbook', 'On-call handbook', (t) => `On-call for ${t}: rotation, escalation path, the most common alerts and first steps for each.`],
  ['team-charter', 'Team charter', (t) => `${t} team charter: mission, what the team owns and how to request work from it.`],
  ['roadmap-2025', 'Roadmap 2025', (t) => `${t} roadmap for 2025: planned projects per quarter and their status.`],
  ['roadmap-2026', 'Roadmap 2026', (t) => `${t} roadmap for 2026: planned projects per quarter and their status.`],
  ['onboarding', 'Onboarding', (t) => `Onboarding guide for engineers joining ${t}: access to request, repositories to clone and first starter tasks.`],
  ['slo-definitions', 'SLO definitions', (t) => `Service level objectives owned by ${t}: SLIs, targets and the error budget policy.`],
  ['release-process', 'Release process', (t) => `How ${t} ships changes: branching, release cadence, feature flags and rollback.`],
  ['testing-strategy', 'Testing strategy', (t) => `How ${t} tests: unit, contract and end-to-end tests and what runs in CI.`],
  ['glossary', 'Glossary', (t) => `Terms and abbreviations used by the ${t} team.`],
  ['faq', 'FAQ', (t) => `Frequently asked questions about ${t} systems.`],
  ['README', 'Home', (t) => `Home page of the ${t} team space.`],
  ['notes', 'Notes', () => 'Scratch notes.'],
];

/** Teams and page kinds the questions ask about: their siblings are the hard distractors. */
const FOCUS_TEAMS = ['data-platform', 'search', 'identity', 'payments'];
const FOCUS_TOPICS = ['onboarding', 'slo-definitions', 'roadmap-2026', 'oncall-handbook'];

function teamSpaces(): SearchDoc[] {
  return TEAMS.flatMap((team) =>
    TEAM_TOPICS.map(([slug, title, describe]) =>
      resource('wiki', `wiki://teams/${team}/${slug}.md`, `${team}/${slug}.md`, `${titleCase(team)}: ${title}`, describe(titleCase(team)), 'text/markdown'),
    ),
  );
}

function meetingNotes(): SearchDoc[] {
  const kinds: [string, string][] = [['weekly-sync', 'weekly sync'], ['retro', 'retrospective'], ['sprint-planning', 'sprint planning'], ['design-review', 'design review']];
  const days = dateRange('2024-01-01', '2025-12-31');
  return TEAMS.flatMap((team) =>
    kinds.flatMap(([slug, label]) =>
      days.filter((_, i) => i % 7 === TEAMS.indexOf(team) % 7).map((date) =>
        resource(
          'wiki',
          `wiki://teams/${team}/meetings/${date}-${slug}.md`,
          `${date}-${slug}.md`,
          `${titleCase(team)} ${label} – ${date}`,
          `Notes from the ${titleCase(team)} ${label} on ${longDate(date)}: attendees, decisions and action items.`,
          'text/markdown',
        ),
      ),
    ),
  );
}

function wikiInterface(): SearchDoc[] {
  return [
    template('wiki', 'wiki://{space}/pages/{page_id}', 'wiki-page', 'Wiki page', 'A wiki page by space key and page id, as Markdown.'),
    template('wiki', 'wiki://{space}/pages/{page_id}/history', 'wiki-page-history', 'Page revision history', 'Every revision of a wiki page with author, timestamp and change summary.'),
    template('wiki', 'wiki://{space}/pages/{page_id}/comments', 'wiki-page-comments', 'Page comments', 'Inline and footer comments on a wiki page.'),
    template('wiki', 'wiki://{space}/pages/{page_id}/children', 'wiki-page-children', 'Child pages', 'Pages nested directly under a wiki page.'),
    tool('wiki', 'search_wiki', 'Search wiki', 'Full-text search across wiki spaces; returns page titles, spaces and matching snippets.'),
    tool('wiki', 'create_wiki_page', 'Create wiki page', 'Create a new page in a wiki space from Markdown, optionally under a parent page.'),
    tool('wiki', 'update_wiki_page', 'Update wiki page', 'Replace or append to the Markdown body of an existing wiki page.'),
    tool('wiki', 'move_wiki_page', 'Move wiki page', 'Move a page and its children to another parent or space.'),
    tool('wiki', 'add_wiki_comment', 'Comment on wiki page', 'Add a comment to a wiki page, optionally anchored to a text selection.'),
    tool('wiki', 'export_page_as_pdf', 'Export page as PDF', 'Render a wiki page and its attachments to a PDF file.'),
    prompt('wiki', 'write_postmortem', 'Write postmortem', 'Draft a blameless postmortem from an incident timeline: summary, root cause, contributing factors and action items.'),
    prompt('wiki', 'generate_runbook', 'Generate runbook', 'Turn a description of an operational procedure into a step-by-step runbook with checks and rollback steps.'),
    prompt('wiki', 'onboarding_checklist', 'Onboarding checklist', 'Produce a first-30-days checklist for a new hire given their role and team.'),
    prompt('wiki', 'summarize_document', 'Summarize document', 'Summarize a long wiki page or document into key points and open questions.'),
    prompt('wiki', 'draft_job_description', 'Draft job description', 'Write a job posting from a role title, level, team and must-have skills.'),
    prompt('wiki', 'interview_feedback_summary', 'Interview feedback summary', 'Combine interviewers’ notes into one hiring recommendation with strengths and concerns.'),
    prompt('wiki', 'answer_from_handbook', 'Answer from handbook', 'Answer an employee question using only the handbook pages provided, citing the page.'),
  ];
}

export const WIKI_FAMILIES: Family[] = [
  { id: 'wiki.runbooks', hard: true, docs: runbooks() },
  { id: 'wiki.country-handbook', hard: true, docs: countryHandbook() },
  { id: 'wiki.policies', hard: true, docs: policies() },
  { id: 'wiki.adrs', hard: true, docs: adrs() },
  { id: 'wiki.postmortems', hard: true, docs: postmortems() },
  { id: 'wiki.onboarding', hard: true, docs: onboarding() },
  ...splitFamily('wiki.team-spaces', teamSpaces(), (d) => FOCUS_TEAMS.some((t) => d.key.includes(`/teams/${t}/`)) || FOCUS_TOPICS.some((t) => d.key.endsWith(`/${t}.md`))),
  { id: 'wiki.meeting-notes', hard: false, docs: meetingNotes(), limit: 400 },
  { id: 'wiki.interface', hard: true, docs: wikiInterface() },
];

/**
 * Company-wide servers: the wiki (runbooks, handbook, ADRs, postmortems, team spaces), the file server
 * (reports, price lists, contracts), Google Drive, the calendar, Slack and email.
 */
import type { SearchDoc } from '../dataset.js';
import {
  addDays, dateRange, firstWeekday, longDate, MONTHS, pick, prompt, resource, rng, sample, template, titleCase, tool,
  splitFamily, type Family,
} from './util.js';

export const ENVS = ['production', 'staging'] as const;

export const TEAMS = [
  'payments', 'platform', 'data-platform', 'search', 'mobile', 'web', 'growth', 'security', 'sre', 'identity',
  'billing', 'ml', 'infra', 'design-systems', 'support-tools',
];

// ---------------------------------------------------------------------------------------------------------------
// wiki

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

// ---------------------------------------------------------------------------------------------------------------
// files (a file server mounted as file:///srv)

/** [slug, extension, title, description(quarter, year)]: one sheet per quarter and year. */
const REPORT_TYPES: [string, string, string, (q: number, y: number) => string][] = [
  ['revenue', 'xlsx', 'Revenue report', (q, y) => `Revenue for Q${q} ${y} by product line and region: bookings, recognized revenue and variance against plan.`],
  ['expenses', 'xlsx', 'Operating expenses', (q, y) => `Operating expenses for Q${q} ${y} by department and cost center, with variance against budget.`],
  ['headcount', 'xlsx', 'Headcount report', (q, y) => `Headcount at the end of Q${q} ${y} by department and location, with hires, leavers and open roles.`],
  ['board-deck', 'pdf', 'Board deck', (q, y) => `Slides presented to the board for Q${q} ${y}: highlights, financials, KPIs and asks.`],
  ['churn-analysis', 'xlsx', 'Churn analysis', (q, y) => `Customer churn analysis for Q${q} ${y}: logo and revenue churn by segment and the top cancellation reasons.`],
  ['marketing-spend', 'xlsx', 'Marketing spend', (q, y) => `Marketing spend in Q${q} ${y} by channel (paid search, social, events, sponsorships) with cost per lead.`],
];

const MIME: Record<string, string> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
  csv: 'text/csv',
  md: 'text/markdown',
  txt: 'text/plain',
};

function reports(): SearchDoc[] {
  const quarterly = [2022, 2023, 2024, 2025].flatMap((y) =>
    [1, 2, 3, 4].flatMap((q) =>
      REPORT_TYPES.map(([slug, ext, title, describe]) =>
        resource('files', `file:///srv/reports/${y}/q${q}-${slug}.${ext}`, `q${q}-${slug}.${ext}`, `${title} Q${q} ${y}`, describe(q, y), MIME[ext]),
      ),
    ),
  );
  const annual = [2019, 2020, 2021, 2022, 2023, 2024].map((y) =>
    resource('files', `file:///srv/reports/${y}/annual-report.pdf`, 'annual-report.pdf', `Annual report ${y}`, `Annual report for fiscal year ${y}: letter from the CEO, audited financials and company highlights.`, MIME.pdf),
  );
  return [...quarterly, ...annual];
}

const PRICE_REGIONS: [string, string, string][] = [
  ['us', 'United States', 'USD'], ['eu', 'European Union', 'EUR'], ['uk', 'United Kingdom', 'GBP'], ['apac', 'Asia-Pacific', 'USD and SGD'], ['latam', 'Latin America', 'USD and BRL'],
];

function priceLists(): SearchDoc[] {
  return [2023, 2024, 2025, 2026].flatMap((y) =>
    PRICE_REGIONS.map(([r, region, currency]) =>
      resource(
        'files',
        `file:///srv/sales/pricing/${y}/price-list-${r}.pdf`,
        `price-list-${r}.pdf`,
        `Price list ${y} – ${region}`,
        `${y} price list for customers in the ${region} region: list price per plan in ${currency}, volume discounts and approved discount bands.`,
        MIME.pdf,
      ),
    ),
  );
}

/** [slug, display name, industry, segment, region, account owner, customer since]. Shared with the CRM and billing. */
export const CUSTOMERS: [string, string, string, string, string, string, number][] = [
  ['acme-corp', 'Acme Corp', 'manufacturing', 'enterprise', 'North America', 'Dana Whitfield', 2021],
  ['globex', 'Globex', 'energy', 'enterprise', 'EMEA', 'Marc Olsen', 2022],
  ['initech', 'Initech', 'software', 'mid-market', 'North America', 'Priya Raman', 2020],
  ['umbrella-health', 'Umbrella Health', 'healthcare', 'enterprise', 'EMEA', 'Sofia Marin', 2023],
  ['hooli', 'Hooli', 'internet', 'enterprise', 'North America', 'Dana Whitfield', 2019],
  ['stark-industries', 'Stark Industries', 'aerospace', 'enterprise', 'North America', 'Jamal Carter', 2021],
  ['wayne-enterprises', 'Wayne Enterprises', 'conglomerate', 'enterprise', 'North America', 'Jamal Carter', 2022],
  ['wonka-foods', 'Wonka Foods', 'food and beverage', 'mid-market', 'EMEA', 'Sofia Marin', 2023],
  ['tyrell-systems', 'Tyrell Systems', 'robotics', 'mid-market', 'APAC', 'Kenji Watanabe', 2022],
  ['cyberdyne', 'Cyberdyne', 'defense', 'enterprise', 'North America', 'Priya Raman', 2020],
  ['soylent-labs', 'Soylent Labs', 'biotech', 'startup', 'APAC', 'Kenji Watanabe', 2024],
  ['vandelay-imports', 'Vandelay Imports', 'logistics', 'smb', 'North America', 'Marc Olsen', 2023],
  ['massive-dynamic', 'Massive Dynamic', 'research', 'enterprise', 'EMEA', 'Sofia Marin', 2021],
  ['aperture-science', 'Aperture Science', 'research', 'mid-market', 'North America', 'Priya Raman', 2022],
  ['oscorp', 'Oscorp', 'chemicals', 'enterprise', 'North America', 'Jamal Carter', 2024],
];

function contracts(): SearchDoc[] {
  return CUSTOMERS.flatMap(([slug, name, , , , , since]) => {
    const c = (file: string, title: string, description: string) =>
      resource('files', `file:///srv/legal/contracts/${slug}/${file}`, file, title, description, MIME.pdf);
    const orderForms = [];
    for (let y = since; y <= 2025; y++) {
      orderForms.push(c(`order-form-${y}.pdf`, `${name} order form ${y}`, `Signed order form with ${name} for ${y}: plan, seat count, term dates and agreed discount.`));
    }
    return [
      c(`msa-${since}.pdf`, `${name} master services agreement`, `Master services agreement with ${name} signed in ${since}: liability caps, SLAs, termination and renewal terms.`),
      c(`dpa-${since}.pdf`, `${name} data processing agreement`, `Data processing agreement with ${name} (${since}): GDPR roles, sub-processors, breach notification and data retention.`),
      c(`nda-${since - 1}.pdf`, `${name} mutual NDA`, `Mutual non-disclosure agreement signed with ${name} before the sales process in ${since - 1}.`),
      ...orderForms,
    ];
  });
}

function hrAndFinanceSheets(): SearchDoc[] {
  const bands = [2023, 2024, 2025, 2026].flatMap((y) =>
    [['us', 'the United States'], ['emea', 'EMEA'], ['apac', 'APAC'], ['latam', 'Latin America']].map(([r, region]) =>
      resource(
        'files',
        `file:///srv/hr/compensation/salary-bands-${y}-${r}.xlsx`,
        `salary-bands-${y}-${r}.xlsx`,
        `Salary bands ${y} – ${region.replace(/^the /, '')}`,
        `Salary bands for ${region} in ${y}: minimum, midpoint and maximum base salary per job family and level.`,
        MIME.xlsx,
      ),
    ),
  );
  const depts = ['engineering', 'marketing', 'sales', 'support', 'finance', 'people'];
  const budgets = [2023, 2024, 2025, 2026].flatMap((y) =>
    depts.map((d) =>
      resource(
        'files',
        `file:///srv/finance/budget/${y}/${d}-budget.xlsx`,
        `${d}-budget.xlsx`,
        `${titleCase(d)} budget ${y}`,
        `Approved ${y} budget for the ${d} department: headcount plan, software, contractors and travel by quarter.`,
        MIME.xlsx,
      ),
    ),
  );
  return [...bands, ...budgets];
}

function genericFiles(): SearchDoc[] {
  const users = ['alice', 'bob', 'carol', 'dan', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy', 'mallory', 'oscar', 'peggy', 'trent', 'victor', 'wendy'];
  const depts = ['engineering', 'marketing', 'sales', 'support', 'finance', 'people', 'legal', 'design'];
  const home = users.flatMap((u) => [
    resource('files', `file:///home/${u}/notes.md`, 'notes.md', 'notes.md', 'Personal notes.', MIME.md),
    resource('files', `file:///home/${u}/todo.txt`, 'todo.txt', 'todo.txt', 'To-do list.', MIME.txt),
    resource('files', `file:///home/${u}/Downloads/export.csv`, 'export.csv', 'export.csv', 'Downloaded export.', MIME.csv),
  ]);
  const shared = depts.flatMap((d) => [
    resource('files', `file:///srv/${d}/README.md`, 'README.md', 'README', `Read me first: how the ${d} shared folder is organised.`, MIME.md),
    resource('files', `file:///srv/${d}/notes.md`, 'notes.md', 'notes.md', 'Shared notes.', MIME.md),
  ]);
  const things = ['customers', 'orders', 'leads', 'tickets', 'invoices', 'signups', 'survey-responses', 'web-traffic'];
  const days = dateRange('2024-01-01', '2025-12-31');
  const r = rng('files.exports');
  const exports = depts.flatMap((d) =>
    sample(days, 40, r).map((day) => {
      const thing = pick(things, r);
      return resource('files', `file:///srv/exports/${d}/${day}-${thing}.csv`, `${day}-${thing}.csv`, `${day}-${thing}.csv`, `Ad-hoc export of ${thing.replace(/-/g, ' ')} made by ${d} on ${day}.`, MIME.csv);
    }),
  );
  return [
    resource('files', 'file:///srv/shared/README.md', 'README.md', 'README', 'Read me first: what lives on the shared file server.', MIME.md),
    resource('files', 'file:///srv/shared/notes.md', 'notes.md', 'notes.md', 'Notes.', MIME.md),
    ...home, ...shared, ...exports,
  ];
}

function filesInterface(): SearchDoc[] {
  return [
    template('files', 'file:///{+path}', 'file', 'File by path', 'Any file on the file server by absolute path.'),
    tool('files', 'read_file', 'Read file', 'Read the contents of a file on the file server as text or base64.'),
    tool('files', 'write_file', 'Write file', 'Create or overwrite a file on the file server.'),
    tool('files', 'list_directory', 'List directory', 'List the files and folders in a directory on the file server.'),
    tool('files', 'search_files', 'Search files', 'Find files on the file server whose names match a glob pattern such as **/*.xlsx, recursively.'),
    tool('files', 'move_file', 'Move file', 'Move or rename a file or directory.'),
    tool('files', 'get_file_info', 'Get file info', 'Size, owner, permissions and modification time of a file.'),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Google Drive: opaque ids, so only the name and description say what a file is.

function driveId(name: string): string {
  const r = rng(`gdrive:${name}`);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let id = '1';
  for (let i = 0; i < 32; i++) id += alphabet[Math.floor(r() * alphabet.length)];
  return id;
}

const GDOC = 'application/vnd.google-apps.document';
const GSHEET = 'application/vnd.google-apps.spreadsheet';
const GSLIDES = 'application/vnd.google-apps.presentation';

function driveFile(name: string, mime: string, description: string): SearchDoc {
  return resource('gdrive', `gdrive:///${driveId(name)}`, name, name, description, mime);
}

function driveFiles(): SearchDoc[] {
  return [
    driveFile('2025 Brand Guidelines', GSLIDES, 'Logo usage, color palette, typography and tone of voice for all 2025 marketing material.'),
    driveFile('2024 Brand Guidelines', GSLIDES, 'Logo usage, color palette, typography and tone of voice for 2024 marketing material.'),
    driveFile('Sales Playbook – EMEA 2025', GDOC, 'How the EMEA sales team qualifies, demos and closes deals in 2025, with objection handling.'),
    driveFile('Sales Playbook – North America 2025', GDOC, 'How the North America sales team qualifies, demos and closes deals in 2025, with objection handling.'),
    driveFile('Sales Playbook – EMEA 2024', GDOC, 'How the EMEA sales team qualified, demoed and closed deals in 2024.'),
    driveFile('Hiring Plan 2026', GSHEET, 'Approved new roles for 2026 by department, level, location and target start quarter.'),
    driveFile('Hiring Plan 2025', GSHEET, 'Approved new roles for 2025 by department, level, location and target start quarter.'),
    driveFile('Board Meeting Minutes – March 2025', GDOC, 'Minutes of the March 2025 board meeting: attendees, resolutions and follow-ups.'),
    driveFile('Board Meeting Minutes – December 2024', GDOC, 'Minutes of the December 2024 board meeting: attendees, resolutions and follow-ups.'),
    driveFile('Company OKRs 2025', GSHEET, 'Company objectives and key results for 2025 with owners and quarterly scores.'),
    driveFile('Company OKRs 2026', GSHEET, 'Draft company objectives and key results for 2026.'),
    driveFile('Customer Reference List', GSHEET, 'Customers who agreed to act as references, by industry and region, with contact person.'),
    driveFile('Competitive Battlecards', GSLIDES, 'One slide per competitor: positioning, pricing, strengths, weaknesses and how to win.'),
    driveFile('Investor Update – Q2 2025', GDOC, 'Quarterly letter to investors for Q2 2025: metrics, wins, hires and asks.'),
    driveFile('Investor Update – Q3 2025', GDOC, 'Quarterly letter to investors for Q3 2025: metrics, wins, hires and asks.'),
    driveFile('Office Seating Chart – Berlin', GSHEET, 'Desk assignments and team neighbourhoods in the Berlin office.'),
    driveFile('Office Seating Chart – London', GSHEET, 'Desk assignments and team neighbourhoods in the London office.'),
    driveFile('Press Kit 2025', GDOC, 'Boilerplate, founder bios, approved screenshots and media contacts for journalists.'),
    driveFile('Partner Program Terms', GDOC, 'Referral and reseller partner tiers, commission rates and obligations.'),
    driveFile('Security Questionnaire Answers (CAIQ)', GSHEET, 'Standard answers to customer security questionnaires, reviewed by the security team.'),
    driveFile('Vendor List', GSHEET, 'Approved vendors with owner, contract end date and data access level.'),
    driveFile('All-Hands Slides – June 2025', GSLIDES, 'Slides shown at the June 2025 company all-hands.'),
    driveFile('Engineering Career Ladder', GDOC, 'Expectations for each engineering level from L1 to Principal, with examples.'),
    driveFile('Offsite 2025 Photos', 'application/vnd.google-apps.folder', 'Photos from the 2025 company offsite.'),
  ];
}

function generatedDriveFiles(): SearchDoc[] {
  const docTypes: [string, string, (t: string, y: number) => string][] = [
    ['Team Goals', GSHEET, (t, y) => `${t} team goals for ${y} and how they roll up to company OKRs.`],
    ['Budget Proposal', GSHEET, (t, y) => `${t} budget request for ${y} with justification per line item.`],
    ['Quarterly Review', GSLIDES, (t, y) => `${t} quarterly business review slides for ${y}.`],
    ['Hiring Tracker', GSHEET, (t, y) => `Open roles and candidate pipeline for ${t} in ${y}.`],
    ['Offsite Agenda', GDOC, (t, y) => `Agenda and pre-reads for the ${t} team offsite in ${y}.`],
    ['Project Brief', GDOC, (t, y) => `Brief for the main ${t} project of ${y}: problem, goals, scope and risks.`],
    ['Retro Notes', GDOC, (t, y) => `Running notes from ${t} retrospectives during ${y}.`],
  ];
  const teams = [...TEAMS, 'marketing', 'sales', 'finance', 'people', 'legal', 'customer-success'];
  return teams.flatMap((team) =>
    docTypes.flatMap(([type, mime, describe]) =>
      [2023, 2024, 2025, 2026].map((y) => driveFile(`${titleCase(team)} ${type} ${y}`, mime, describe(titleCase(team), y))),
    ),
  );
}

function driveInterface(): SearchDoc[] {
  return [
    template('gdrive', 'gdrive:///{file_id}', 'drive-file', 'Drive file', 'A Google Drive file by id; Docs, Sheets and Slides are exported as Markdown, CSV or text.'),
    tool('gdrive', 'search_drive', 'Search Drive', 'Search Google Drive by file name and full text; returns file ids, names and owners.'),
    tool('gdrive', 'share_drive_file', 'Share Drive file', 'Grant a person or group viewer, commenter or editor access to a Google Drive file.'),
    tool('gdrive', 'create_google_doc', 'Create Google Doc', 'Create a new Google Doc from Markdown in a given folder.'),
    tool('gdrive', 'export_drive_file', 'Export Drive file', 'Export a Google Docs, Sheets or Slides file to PDF, DOCX, XLSX or PPTX.'),
    tool('gdrive', 'move_drive_file', 'Move Drive file', 'Move a file to another folder or shared drive.'),
    prompt('gdrive', 'translate_document', 'Translate document', 'Translate a document into a target language while keeping headings, formatting and product names unchanged.'),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// calendar

function calendarEvents(): SearchDoc[] {
  const allHands = [2024, 2025, 2026].flatMap((y) =>
    MONTHS.map((month, i) => {
      const date = firstWeekday(y, i + 1, 4); // first Thursday of the month
      return resource(
        'calendar',
        `calendar://events/${date}/company-all-hands`,
        'company-all-hands',
        `Company all-hands – ${month} ${y}`,
        `Monthly company all-hands on ${longDate(date)}: CEO update, team demos and open Q&A. Everyone is invited.`,
      );
    }),
  );
  // Planning offsites are held about two weeks before the quarter they plan.
  const offsites = [2024, 2025, 2026].flatMap((y) =>
    [1, 2, 3, 4].map((q) => {
      const [py, pm] = q === 1 ? [y - 1, 12] : [y, (q - 1) * 3];
      const date = addDays(firstWeekday(py, pm, 2), 7); // second Tuesday
      return resource(
        'calendar',
        `calendar://events/${date}/q${q}-planning-offsite`,
        `q${q}-planning-offsite`,
        `Q${q} ${y} planning offsite`,
        `Leadership planning offsite for Q${q} ${y} on ${longDate(date)}: agenda, venue, pre-reads and expected outcomes.`,
      );
    }),
  );
  const e = (date: string, slug: string, title: string, description: string) =>
    resource('calendar', `calendar://events/${date}/${slug}`, slug, title, description);
  const specials = [
    e('2025-04-22', 'security-tabletop-exercise', 'Security tabletop exercise', 'Half-day simulated ransomware incident for engineering and leadership, run by the security team.'),
    e('2024-10-15', 'security-tabletop-exercise', 'Security tabletop exercise', 'Half-day simulated data-leak incident for engineering and leadership, run by the security team.'),
    e('2025-10-07', 'engineering-summit-2025', 'Engineering summit 2025', 'Two-day internal engineering conference in Lisbon with talks, workshops and hack time.'),
    e('2024-10-08', 'engineering-summit-2024', 'Engineering summit 2024', 'Two-day internal engineering conference in Berlin with talks, workshops and hack time.'),
    e('2025-12-11', 'holiday-party-2025', 'Holiday party 2025', 'End-of-year company party; venue, dress code and travel for remote staff.'),
    e('2024-12-12', 'holiday-party-2024', 'Holiday party 2024', 'End-of-year company party; venue, dress code and travel for remote staff.'),
    e('2025-05-20', 'board-meeting', 'Board meeting (Q2 2025)', 'Quarterly board meeting; pre-reads due one week before.'),
    e('2025-11-18', 'board-meeting', 'Board meeting (Q4 2025)', 'Quarterly board meeting; pre-reads due one week before.'),
  ];
  const calendars = [...TEAMS, 'company-holidays', 'leadership', 'interviews'].map((c) =>
    resource('calendar', `calendar://calendars/${c}`, c, `${titleCase(c)} calendar`, `Shared calendar for ${titleCase(c)}: upcoming events and who owns the calendar.`),
  );
  return [...allHands, ...offsites, ...specials, ...calendars];
}

function teamEvents(): SearchDoc[] {
  const kinds: [string, string][] = [['sprint-planning', 'Sprint planning'], ['retro', 'Retrospective'], ['weekly-sync', 'Weekly sync'], ['demo', 'Demo']];
  const days = dateRange('2024-01-01', '2026-06-30');
  const r = rng('calendar.team-events');
  return TEAMS.flatMap((team) =>
    kinds.flatMap(([slug, label]) =>
      sample(days, 40, r).map((date) =>
        resource(
          'calendar',
          `calendar://events/${date}/${team}-${slug}`,
          `${team}-${slug}`,
          `${titleCase(team)} ${label.toLowerCase()} – ${date}`,
          `${label} for the ${titleCase(team)} team on ${longDate(date)}, 45 minutes, video link in the invite.`,
        ),
      ),
    ),
  );
}

function calendarInterface(): SearchDoc[] {
  return [
    template('calendar', 'calendar://calendars/{calendar_id}/events{?from,to}', 'calendar-events', 'Events of a calendar', 'Events on a calendar between two dates.'),
    template('calendar', 'calendar://events/{event_id}', 'calendar-event', 'Calendar event', 'One calendar event: time, location, video link and description.'),
    template('calendar', 'calendar://events/{event_id}/attendees', 'event-attendees', 'Event attendees', 'Guest list of a calendar event with each person’s RSVP status (accepted, declined, tentative).'),
    template('calendar', 'calendar://rooms/{room_id}/availability{?date}', 'room-availability', 'Room availability', 'When a meeting room is booked and free on a given day.'),
    template('calendar', 'calendar://users/{email}/free-busy{?from,to}', 'free-busy', 'Free/busy of a person', 'Busy blocks of one person’s calendar between two dates, without event details.'),
    tool('calendar', 'create_event', 'Create event', 'Create a calendar event with title, time, guests and an optional video link, and send the invitations.'),
    tool('calendar', 'update_event', 'Update event', 'Change the time, guests or description of an existing calendar event.'),
    tool('calendar', 'cancel_event', 'Cancel event', 'Cancel a calendar event and notify all guests, optionally with a message.'),
    tool('calendar', 'list_events', 'List events', 'List events on a calendar in a time range.'),
    tool('calendar', 'find_free_slots', 'Find free slots', 'Find time slots when all the given people are available, within working hours and a date range.'),
    tool('calendar', 'respond_to_invite', 'Respond to invite', 'Accept, decline or tentatively accept an invitation you received, with an optional note.'),
    tool('calendar', 'book_meeting_room', 'Book meeting room', 'Reserve a meeting room for a time slot and attach it to an event.'),
    prompt('calendar', 'prepare_meeting_agenda', 'Prepare meeting agenda', 'Draft a time-boxed agenda for a meeting from its goal, attendees and pre-reads.'),
    prompt('calendar', 'summarize_meeting_notes', 'Summarize meeting notes', 'Turn raw meeting notes or a transcript into decisions, action items with owners, and open questions.'),
    prompt('calendar', 'prepare_one_on_one', 'Prepare one-on-one', 'Suggest talking points for a 1:1 from recent work, feedback and career goals.'),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Slack and email

const CHANNELS: [string, string, string][] = [
  ['incident-response', 'where active incidents are coordinated', 'severity definitions, incident commander checklist and the status page link'],
  ['eng-announcements', 'engineering-wide announcements', 'the release calendar, the on-call schedule and the engineering handbook'],
  ['general', 'company-wide chat', 'office addresses, the holiday calendar and the IT help form'],
  ['random', 'off-topic chat', 'the channel etiquette'],
  ['sales-wins', 'closed deals and customer wins', 'the deal-desk form and the quarterly target'],
  ['support-escalations', 'support tickets escalated to engineering', 'the escalation template, severity matrix and engineering contacts per area'],
  ['deploys', 'deploy notifications from CI', 'the deploy freeze calendar and how to roll back'],
  ['oncall-payments', 'the payments on-call rotation', 'the payments runbooks and the provider status pages'],
  ['design-feedback', 'design reviews and critique', 'the critique guidelines and the Figma team link'],
  ['data-questions', 'questions about data and dashboards', 'the metrics glossary and the warehouse docs'],
  ['security-alerts', 'alerts from security tooling', 'the vulnerability SLA and how to report a phishing email'],
  ['hr-questions', 'questions for the people team', 'the handbook and the benefits portal'],
];

function slackChannels(): SearchDoc[] {
  return CHANNELS.flatMap(([c, purpose, pins]) => [
    resource('slack', `slack://channels/${c}`, `#${c}`, `#${c}`, `Recent messages in #${c}, the channel for ${purpose}.`),
    resource('slack', `slack://channels/${c}/pins`, `#${c} pins`, `Pinned in #${c}`, `Pinned messages in #${c}: ${pins}.`),
  ]);
}

function slackAndEmailInterface(): SearchDoc[] {
  return [
    tool('slack', 'send_slack_message', 'Send Slack message', 'Post a message to a Slack channel, optionally as a reply in a thread.'),
    tool('slack', 'send_slack_dm', 'Send Slack DM', 'Send a direct message to one Slack user.'),
    tool('slack', 'search_slack_messages', 'Search Slack messages', 'Search Slack message history across channels with Slack search modifiers (in:, from:, before:).'),
    tool('slack', 'create_slack_channel', 'Create Slack channel', 'Create a public or private Slack channel and invite members.'),
    tool('slack', 'list_slack_channels', 'List Slack channels', 'List Slack channels with topic, purpose and member count.'),
    tool('slack', 'add_slack_reaction', 'Add reaction', 'Add an emoji reaction to a Slack message.'),
    tool('slack', 'set_slack_status', 'Set Slack status', 'Set your Slack status text, emoji and expiry, for example “On vacation” until a date.'),
    tool('slack', 'schedule_slack_message', 'Schedule Slack message', 'Schedule a message to be posted to a Slack channel at a future time.'),
    tool('slack', 'invite_to_slack_channel', 'Invite to channel', 'Invite users to a Slack channel.'),
    prompt('slack', 'summarize_slack_thread', 'Summarize Slack thread', 'Summarize a long Slack thread: the question, the answers given, what was decided and what is still open.'),
    prompt('slack', 'draft_announcement', 'Draft announcement', 'Draft an internal announcement of a launch, policy change or new hire for Slack or email, in a friendly tone.'),
    tool('email', 'send_email', 'Send email', 'Send an email from your mailbox to one or more recipients, with optional attachments.'),
    tool('email', 'search_email', 'Search email', 'Search your mailbox with Gmail-style operators (from:, subject:, has:attachment).'),
    tool('email', 'create_email_draft', 'Create email draft', 'Save an email as a draft in your mailbox without sending it.'),
    tool('email', 'list_unread_emails', 'List unread emails', 'List unread messages in the inbox, newest first.'),
    tool('email', 'set_auto_reply', 'Set auto-reply', 'Turn on an automatic reply with a message and start and end dates, for example while you are on vacation.'),
    tool('email', 'forward_email', 'Forward email', 'Forward an email message to other recipients with an optional note.'),
  ];
}

export const COMPANY_FAMILIES: Family[] = [
  { id: 'wiki.runbooks', hard: true, docs: runbooks() },
  { id: 'wiki.country-handbook', hard: true, docs: countryHandbook() },
  { id: 'wiki.policies', hard: true, docs: policies() },
  { id: 'wiki.adrs', hard: true, docs: adrs() },
  { id: 'wiki.postmortems', hard: true, docs: postmortems() },
  { id: 'wiki.onboarding', hard: true, docs: onboarding() },
  ...splitFamily('wiki.team-spaces', teamSpaces(), (d) => FOCUS_TEAMS.some((t) => d.key.includes(`/teams/${t}/`)) || FOCUS_TOPICS.some((t) => d.key.endsWith(`/${t}.md`))),
  { id: 'wiki.meeting-notes', hard: false, docs: meetingNotes(), limit: 400 },
  { id: 'wiki.interface', hard: true, docs: wikiInterface() },
  { id: 'files.reports', hard: true, docs: reports() },
  { id: 'files.price-lists', hard: true, docs: priceLists() },
  // Every customer's MSA and DPA, and all contracts of the customers the questions name.
  ...splitFamily('files.contracts', contracts(), (d) => /\/(globex|initech|hooli)\//.test(d.key) || /\/(msa|dpa)-\d+\.pdf$/.test(d.key)),
  { id: 'files.hr-finance', hard: true, docs: hrAndFinanceSheets() },
  // Shared README.md / notes.md files are the classic generic distractors; home directories and exports are filler.
  ...splitFamily('files.generic', genericFiles(), (d) => d.key.startsWith('file:///srv/') && !d.key.includes('/exports/')),
  { id: 'files.interface', hard: true, docs: filesInterface() },
  { id: 'gdrive.files', hard: true, docs: driveFiles() },
  { id: 'gdrive.generated', hard: false, docs: generatedDriveFiles(), limit: 300 },
  { id: 'gdrive.interface', hard: true, docs: driveInterface() },
  // All-hands of 2025 and of every June are near the June 2025 one; other months and the team calendars are filler.
  ...splitFamily('calendar.events', calendarEvents(), (d) =>
    d.key.startsWith('calendar://events/') && (!d.key.endsWith('/company-all-hands') || /events\/(2025-|\d{4}-06-)/.test(d.key))),
  { id: 'calendar.team-events', hard: false, docs: teamEvents(), limit: 400 },
  { id: 'calendar.interface', hard: true, docs: calendarInterface() },
  { id: 'slack.channels', hard: true, docs: slackChannels() },
  { id: 'slack-email.interface', hard: true, docs: slackAndEmailInterface() },
];

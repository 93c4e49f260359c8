/**
 * API documentation, Figma and the data lake.
 */
import type { SearchDoc } from '../dataset.js';
import { dateRange, longDate, prompt, resource, rng, sample, splitFamily, template, titleCase, tool, type Family } from './util.js';

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

export const DOCS_FAMILIES: Family[] = [
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

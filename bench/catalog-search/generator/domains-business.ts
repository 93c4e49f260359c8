/**
 * Business servers: the CRM, billing, the support desk and Jira.
 */
import type { SearchDoc } from '../dataset.js';
import { CUSTOMERS } from './vocabulary.js';
import { addDays, makersFor, MONTHS, pad, pick, prompt, resource, rng, shuffle, splitFamily, titleCase, type Family } from './util.js';

// ---------------------------------------------------------------------------------------------------------------
// CRM

type Customer = { slug: string; name: string; industry: string; segment: string; region: string; owner: string; since: number };

const KNOWN: Customer[] = CUSTOMERS.map(([slug, name, industry, segment, region, owner, since]) => ({ slug, name, industry, segment, region, owner, since }));

/** Invented companies for the filler: same page shapes as the known customers, different names. */
function inventedCustomers(): Customer[] {
  const first = ['Northwind', 'Blue Harbor', 'Silverline', 'Redwood', 'Pinecrest', 'Ironclad', 'Brightpath', 'Summit', 'Lakeside', 'Cobalt', 'Evergreen', 'Granite', 'Horizon', 'Keystone', 'Meridian', 'Nimbus', 'Orchid', 'Riverbend', 'Sterling', 'Willow'];
  const second: [string, string][] = [['Traders', 'wholesale'], ['Logistics', 'logistics'], ['Analytics', 'software'], ['Health', 'healthcare'], ['Foods', 'food and beverage'], ['Energy', 'energy'], ['Bank', 'financial services'], ['Retail', 'retail'], ['Labs', 'biotech'], ['Media', 'media']];
  const r = rng('crm.invented');
  const owners = ['Dana Whitfield', 'Marc Olsen', 'Priya Raman', 'Sofia Marin', 'Jamal Carter', 'Kenji Watanabe', 'Lena Fischer', 'Tom Okafor'];
  return first.flatMap((a) =>
    second.map(([b, industry]) => ({
      slug: `${a}-${b}`.toLowerCase().replace(/ /g, '-'),
      name: `${a} ${b}`,
      industry,
      segment: pick(['smb', 'mid-market', 'enterprise', 'startup'], r),
      region: pick(['North America', 'EMEA', 'APAC', 'LATAM'], r),
      owner: pick(owners, r),
      since: 2018 + Math.floor(r() * 8),
    })),
  );
}

/** A customer's profile page and four sub-pages: the resource-vs-tool and name-vs-facet traps. */
function customerPages(c: Customer): SearchDoc[] {
  const base = `crm://customers/${c.slug}`;
  return [
    resource('crm', base, c.slug, `${c.name} (customer)`, `Customer account ${c.name}: ${c.industry}, ${c.segment} segment, ${c.region}; account owner ${c.owner}; customer since ${c.since}; ARR and renewal date.`, 'application/json'),
    resource('crm', `${base}/contacts`, `${c.slug}/contacts`, `${c.name} contacts`, `People at ${c.name}: decision makers, billing contact and product champions with roles, emails and phone numbers.`, 'application/json'),
    resource('crm', `${base}/deals`, `${c.slug}/deals`, `${c.name} deals`, `Open and closed deals with ${c.name}: stage, amount, expected close date and owner.`, 'application/json'),
    resource('crm', `${base}/notes`, `${c.slug}/notes`, `${c.name} account notes`, `Notes logged by the account team about ${c.name}: call summaries, risks and next steps.`, 'application/json'),
    resource('crm', `${base}/renewal`, `${c.slug}/renewal`, `${c.name} renewal`, `Renewal forecast for ${c.name}: contract end date, likelihood, expansion potential and blockers.`, 'application/json'),
  ];
}

function crmInterface(): SearchDoc[] {
  const { t, f, p } = makersFor('crm');
  return [
    t('crm://customers/{id}/invoices', 'customer-invoices', 'Customer invoices', 'Every invoice billed to one customer account, with amount, status and due date.'),
    t('crm://customers/{id}/contacts', 'customer-contacts', 'Customer contacts', 'People recorded at a customer account.'),
    t('crm://customers/{id}/deals', 'customer-deals', 'Customer deals', 'Deals attached to a customer account.'),
    t('crm://deals/{deal_id}', 'deal', 'Deal', 'A deal with stage, amount, close date, owner and products.'),
    t('crm://deals/{deal_id}/activity', 'deal-activity', 'Deal activity', 'Chronological activity on a deal: emails, calls, meetings and stage changes.'),
    t('crm://leads/{lead_id}', 'lead', 'Lead', 'A lead with source, score and qualification status.'),
    f('get_customer', 'Get customer', 'Fetch a customer account from the CRM by account id, with owner, segment, ARR and renewal date.'),
    f('search_customers', 'Search customers', 'Search CRM accounts by name, domain, industry or owner.'),
    f('create_lead', 'Create lead', 'Create a new lead in the CRM with name, company, email and lead source.'),
    f('update_deal_stage', 'Update deal stage', 'Move a deal to another pipeline stage, such as negotiation or closed won, with an optional reason.'),
    f('log_call', 'Log call', 'Record a phone or video call against a contact, account or deal, with notes and outcome.'),
    f('list_deals', 'List deals', 'List deals filtered by owner, stage and expected close date.'),
    f('add_contact', 'Add contact', 'Add a person to a customer account in the CRM.'),
    f('merge_duplicate_contacts', 'Merge duplicate contacts', 'Merge two or more CRM contacts that are the same person, keeping the newest field values.'),
    f('assign_account_owner', 'Assign account owner', 'Change the sales owner of a CRM account.'),
    p('draft_customer_email', 'Draft customer email', 'Draft an email to a customer contact from the account context and the goal of the message.'),
    p('qbr_deck_outline', 'QBR deck outline', 'Outline a quarterly business review deck for a customer: value delivered, usage, roadmap and asks.'),
    p('account_health_summary', 'Account health summary', 'Summarize the health of a customer account: usage trend, open tickets, NPS, renewal date and risks.'),
    p('churn_risk_analysis', 'Churn risk analysis', 'Rank a list of accounts by churn risk and explain the main drivers for each.'),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// billing

function plans(): SearchDoc[] {
  const list: [string, string, string][] = [
    ['starter-monthly', 'Starter', 'monthly'], ['starter-annual', 'Starter', 'annually'], ['pro-monthly', 'Pro', 'monthly'], ['pro-annual', 'Pro', 'annually'],
    ['business-monthly', 'Business', 'monthly'], ['business-annual', 'Business', 'annually'], ['enterprise', 'Enterprise', 'per contract'],
  ];
  return list.map(([id, plan, interval]) =>
    resource('billing', `billing://plans/${id}`, id, `${plan} plan (${interval === 'annually' ? 'annual' : interval})`, `${plan} plan billed ${interval}: included seats, usage limits, features and overage rules.`, 'application/json'),
  );
}

function invoice(c: Customer, index: number, year: number, month: number): SearchDoc {
  const number = `INV-${year}${pad(month)}-${pad(index + 1, 3)}`;
  return resource(
    'billing',
    `billing://invoices/${number}`,
    number,
    `Invoice ${number} – ${c.name} (${MONTHS[month - 1]} ${year})`,
    `Monthly invoice for ${c.name} for ${MONTHS[month - 1]} ${year}: subscription, usage charges, tax and payment status.`,
    'application/json',
  );
}

/** Hooli's invoices in every month, and every known customer's March 2025 invoice: month and customer each clash. */
function nearbyInvoices(): SearchDoc[] {
  const hooli = KNOWN.findIndex((c) => c.slug === 'hooli');
  const months: SearchDoc[] = [];
  for (const y of [2024, 2025]) for (let m = 1; m <= 12; m++) months.push(invoice(KNOWN[hooli], hooli, y, m));
  return [...months, ...KNOWN.map((c, i) => invoice(c, i, 2025, 3))];
}

function generatedInvoices(): SearchDoc[] {
  const all = [...KNOWN, ...inventedCustomers().slice(0, 40)];
  const out: SearchDoc[] = [];
  all.forEach((c, i) => {
    for (const y of [2024, 2025]) for (let m = 1; m <= 12; m++) out.push(invoice(c, i, y, m));
  });
  return out;
}

function billingInterface(): SearchDoc[] {
  const { t, f } = makersFor('billing');
  return [
    t('billing://invoices/{invoice_id}', 'invoice', 'Invoice', 'An invoice with line items, tax, totals and payment status.'),
    t('billing://invoices/{invoice_id}/pdf', 'invoice-pdf', 'Invoice PDF', 'The rendered PDF of an invoice, as sent to the customer.'),
    t('billing://plans/{plan_id}', 'plan', 'Plan', 'A sellable plan with price, interval and limits.'),
    t('billing://subscriptions/{subscription_id}', 'subscription', 'Subscription', 'A subscription with plan, status, current period and next invoice date.'),
    t('billing://usage/{subscription_id}{?period}', 'metered-usage', 'Metered usage', 'Metered usage recorded for a subscription in a billing period, per meter and day.'),
    f('refund_payment', 'Refund payment', 'Refund a captured payment in full or in part, with a reason.'),
    f('create_invoice', 'Create invoice', 'Create a one-off invoice for a customer with line items and a due date.'),
    f('get_subscription', 'Get subscription', 'Fetch a customer’s subscription with plan, status and renewal date.'),
    f('cancel_subscription', 'Cancel subscription', 'Cancel a subscription immediately or at the end of the current billing period.'),
    f('change_subscription_plan', 'Change subscription plan', 'Upgrade or downgrade a subscription to another plan with proration.'),
    f('apply_coupon', 'Apply coupon', 'Apply a coupon code to a customer or subscription so future invoices are discounted.'),
    f('update_payment_method', 'Update payment method', 'Replace the default card or bank account of a customer.'),
    f('issue_credit_note', 'Issue credit note', 'Issue a credit note against a finalized invoice to reduce the amount owed.'),
    f('list_failed_payments', 'List failed payments', 'List payments that failed in a date range with decline codes.'),
    f('retry_payment', 'Retry payment', 'Immediately retry collecting a failed invoice payment instead of waiting for the dunning schedule.'),
    prompt('billing', 'explain_invoice', 'Explain invoice', 'Explain the line items, proration and tax on an invoice to a customer in plain language.'),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// support desk

function ticket(n: number, status: string, subject: string, requester: string, detail = ''): SearchDoc {
  return resource('support', `support://tickets/${n}`, `#${n}`, `Ticket #${n}: ${subject}`, `Support ticket #${n} from ${requester} (${status}). ${subject}${subject.endsWith('?') ? '' : '.'}${detail ? ' ' + detail : ''}`, 'application/json');
}

function knownSupport(): SearchDoc[] {
  const m = (slug: string, title: string, d: string) => resource('support', `support://macros/${slug}`, slug, `Macro: ${title}`, `Macro (saved reply) ${d}`, 'text/markdown');
  const a = (slug: string, title: string, d: string) => resource('support', `support://articles/${slug}`, slug, title, `Help center article: ${d}`, 'text/html');
  return [
    ticket(48213, 'open', 'Charged twice after upgrading to the Business plan', 'Wonka Foods', 'The customer sees two card charges on the upgrade day; billing confirmed one was a proration invoice.'),
    ticket(48190, 'solved', 'Charged after cancelling the subscription', 'Vandelay Imports'),
    ticket(48251, 'pending', 'Upgrade to Business plan not reflected in seat count', 'Initech'),
    m('refund-request', 'Refund request', 'for customers asking for a refund: eligibility check and the refund timeline.'),
    m('password-reset', 'Password reset', 'explaining how to reset a password and what to do when the email never arrives.'),
    m('account-deletion', 'Account deletion', 'confirming an account deletion request and the 30-day grace period.'),
    m('gdpr-data-export', 'GDPR data export', 'answering a data subject access request: what personal data we send and within how many days.'),
    m('plan-downgrade', 'Plan downgrade', 'for downgrades: what features are lost and when the change takes effect.'),
    m('outage-apology', 'Outage apology', 'apologizing to customers affected by an outage, with the status page link and the service credit offer.'),
    m('invoice-copy', 'Invoice copy', 'sending a copy of an invoice and how to download invoices in the billing portal.'),
    m('escalate-to-engineering', 'Escalate to engineering', 'telling the customer the issue was escalated to engineering and what happens next.'),
    m('feature-request-thanks', 'Feature request thanks', 'thanking a customer for a feature request and explaining how requests are prioritised.'),
    a('how-to-reset-your-password', 'How to reset your password', 'resetting a forgotten password from the login page.'),
    a('enable-two-factor-authentication', 'Enable two-factor authentication', 'turning on 2FA with an authenticator app or a security key, and recovery codes.'),
    a('export-your-data', 'Export your data', 'exporting all workspace data as CSV or JSON from the settings page.'),
    a('change-billing-email', 'Change your billing email', 'changing the address that receives invoices.'),
    a('cancel-your-subscription', 'Cancel your subscription', 'cancelling from the billing page and what happens to your data.'),
    a('invite-team-members', 'Invite team members', 'inviting colleagues, choosing their role and resending invitations.'),
    a('sso-setup-okta', 'Set up SSO with Okta', 'configuring SAML single sign-on with Okta: create the app, map attributes and test the login.'),
    a('sso-setup-azure-ad', 'Set up SSO with Microsoft Entra ID', 'configuring SAML single sign-on with Microsoft Entra ID (Azure AD).'),
    a('sso-setup-google-workspace', 'Set up SSO with Google Workspace', 'configuring SAML single sign-on with Google Workspace.'),
    a('rotate-api-keys', 'Rotate API keys', 'creating a new API key, switching your integration over and revoking the old key.'),
    a('troubleshooting-webhooks', 'Troubleshooting webhooks', 'why webhook deliveries fail and how to read the delivery log.'),
    a('update-payment-method', 'Update your payment method', 'changing the card used for your subscription.'),
  ];
}

function generatedTickets(): SearchDoc[] {
  const problems = [
    'Cannot log in after password change', 'Export to CSV times out', 'Invoice shows the wrong company address', 'Webhook deliveries failing with 401',
    'Slow dashboard loading', 'Need to add more seats', 'Question about data residency', 'SAML login loops back to the login page',
    'Email notifications not arriving', 'API returns 429 too often', 'How do I change the workspace owner?', 'Mobile app does not sync',
    'Request for a W-9 form', 'Duplicate contacts after import', 'Unable to remove a team member', 'Search returns no results for new items',
  ];
  const requesters = [...KNOWN.map((c) => c.name), ...inventedCustomers().slice(0, 60).map((c) => c.name)];
  const r = rng('support.generated');
  const out: SearchDoc[] = [];
  let n = 40000;
  for (let i = 0; i < 900; i++) {
    n += 1 + Math.floor(r() * 12);
    out.push(ticket(n, pick(['open', 'pending', 'solved', 'closed'], r), pick(problems, r), pick(requesters, r)));
  }
  return out;
}

function supportInterface(): SearchDoc[] {
  const { t, f, p } = makersFor('support');
  return [
    t('support://tickets/{ticket_id}', 'ticket', 'Ticket', 'A support ticket with subject, requester, status, priority and assignee.'),
    t('support://tickets/{ticket_id}/conversation', 'ticket-conversation', 'Ticket conversation', 'Every public reply and internal note on a ticket, in order.'),
    t('support://customers/{email}/tickets', 'requester-tickets', 'Tickets by requester', 'All tickets ever opened by one requester, looked up by their email address.'),
    t('support://macros/{macro_id}', 'macro', 'Macro', 'A saved reply and the ticket field changes it applies.'),
    f('create_ticket', 'Create ticket', 'Open a new support ticket on behalf of a customer.'),
    f('reply_to_ticket', 'Reply to ticket', 'Send a public reply to the customer on a support ticket.'),
    f('add_internal_note', 'Add internal note', 'Add a private note to a support ticket that only agents can see.'),
    f('assign_ticket', 'Assign ticket', 'Assign a support ticket to an agent or group.'),
    f('search_tickets', 'Search tickets', 'Search support tickets by text, requester, status, tag or date.'),
    f('merge_tickets', 'Merge tickets', 'Merge duplicate support tickets into one.'),
    f('set_ticket_priority', 'Set ticket priority', 'Change a support ticket’s priority to low, normal, high or urgent.'),
    f('get_ticket', 'Get ticket', 'Fetch one support ticket by number.'),
    p('draft_ticket_reply', 'Draft ticket reply', 'Draft an empathetic reply to a support ticket from the conversation and the relevant help articles.'),
    p('summarize_support_ticket', 'Summarize support ticket', 'Summarize a long ticket thread for the next agent: the problem, what was tried and what the customer is waiting for.'),
    p('classify_ticket', 'Classify ticket', 'Tag a ticket with topic, product area and sentiment.'),
    p('suggest_help_article', 'Suggest help article', 'Find the help center article that best answers a ticket.'),
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// Jira

const PROJECTS: [string, string][] = [['PAY', 'Payments'], ['WEB', 'Web'], ['MOB', 'Mobile'], ['PLAT', 'Platform'], ['DATA', 'Data'], ['SEC', 'Security'], ['OPS', 'Operations']];

function jiraIssue(key: string, type: string, status: string, summary: string, detail = ''): SearchDoc {
  return resource('jira', `jira://issues/${key}`, key, `${key}: ${summary}`, `Jira ${type} ${key} (${status}). ${summary}.${detail ? ' ' + detail : ''}`, 'application/json');
}

function knownJira(): SearchDoc[] {
  const projects = PROJECTS.map(([k, name]) =>
    resource('jira', `jira://projects/${k}`, k, `${name} (${k})`, `Jira project ${k} of the ${name} team: components, lead, issue types and workflow.`, 'application/json'),
  );
  // Sprints are two weeks long; only the sprint number and board separate them.
  const boards = ['payments', 'platform', 'mobile', 'web'];
  const sprints = boards.flatMap((b, bi) =>
    [38, 39, 40, 41, 42, 43, 44, 45].map((n) => {
      const start = addDays('2025-01-06', (n - 38) * 14 + bi);
      return resource('jira', `jira://boards/${b}/sprints/${n}`, `Sprint ${n}`, `${titleCase(b)} sprint ${n}`, `Sprint ${n} of the ${titleCase(b)} board (${start} to ${addDays(start, 13)}): committed issues, status and burndown.`, 'application/json');
    }),
  );
  return [
    ...projects,
    ...sprints,
    jiraIssue('SEC-214', 'bug', 'in progress', 'Rotate leaked AWS access key found in a public gist', 'The key belongs to the CI deploy user; revoke it, rotate and audit CloudTrail for use.'),
    jiraIssue('SEC-220', 'task', 'to do', 'Enable MFA enforcement for all AWS IAM users'),
    jiraIssue('PAY-1423', 'story', 'to do', 'Support SEPA direct debit for EU customers', 'Add SEPA mandates at checkout and in the billing portal.'),
    jiraIssue('PAY-1431', 'story', 'to do', 'Support ACH debit for US customers'),
  ];
}

function generatedJira(): SearchDoc[] {
  const verbs = ['Add', 'Fix', 'Remove', 'Refactor', 'Investigate', 'Document', 'Migrate', 'Speed up'];
  const things = [
    'retry logic in the webhook sender', 'the onboarding checklist', 'pagination in the admin users list', 'keyboard navigation in the settings page', 'flaky checkout e2e test',
    'legacy v1 endpoints', 'audit log export', 'the nightly reconciliation job', 'feature flag cleanup', 'search ranking for exact matches',
    'push notification opt-in', 'currency formatting for JPY', 'the deploy pipeline caching', 'alert thresholds for queue depth', 'SSO group sync',
  ];
  const r = rng('jira.generated');
  const out: SearchDoc[] = [];
  for (const [k] of PROJECTS) {
    let n = 100 + Math.floor(r() * 200);
    for (let i = 0; i < 120; i++) {
      n += 1 + Math.floor(r() * 9);
      out.push(jiraIssue(`${k}-${n}`, pick(['story', 'bug', 'task'], r), pick(['to do', 'in progress', 'in review', 'done'], r), `${pick(verbs, r)} ${pick(things, r)}`));
    }
  }
  return out;
}

function jiraInterface(): SearchDoc[] {
  const { t, f, p } = makersFor('jira');
  return [
    t('jira://issues/{issue_key}', 'jira-issue', 'Jira issue', 'A Jira issue with summary, description, status, assignee and fields.'),
    t('jira://issues/{issue_key}/comments', 'jira-issue-comments', 'Jira issue comments', 'Comments on a Jira issue.'),
    t('jira://issues/{issue_key}/changelog', 'jira-issue-changelog', 'Jira issue changelog', 'Every field change on a Jira issue: who changed status, assignee or priority, and when.'),
    t('jira://projects/{project_key}/versions', 'jira-project-versions', 'Project versions', 'Fix versions of a Jira project with release dates and released or unreleased state.'),
    t('jira://boards/{board_id}/sprints/{sprint_id}', 'jira-sprint', 'Sprint', 'A sprint’s goal, dates and issues.'),
    t('jira://filters/{filter_id}/results', 'jira-filter-results', 'Saved filter results', 'Issues matched by a saved Jira filter.'),
    f('create_jira_issue', 'Create Jira issue', 'Create a Jira issue (story, bug or task) in a project with summary, description and fields.'),
    f('transition_jira_issue', 'Transition Jira issue', 'Move a Jira issue through its workflow, for example from In Progress to Done.'),
    f('search_jira_issues', 'Search Jira issues', 'Find Jira issues with a JQL query.'),
    f('assign_jira_issue', 'Assign Jira issue', 'Assign a Jira issue to a user.'),
    f('log_work', 'Log work', 'Add a worklog entry with time spent to a Jira issue.'),
    f('add_jira_comment', 'Comment on Jira issue', 'Add a comment to a Jira issue.'),
    f('link_jira_issues', 'Link Jira issues', 'Create a link between two Jira issues, such as blocks, is blocked by, duplicates or relates to.'),
    f('create_sprint', 'Create sprint', 'Create a sprint on a Jira board with dates and a goal.'),
    p('sprint_retrospective', 'Sprint retrospective', 'Run a sprint retrospective from the sprint’s issues: what went well, what did not, and actions.'),
    p('write_user_story', 'Write user story', 'Turn a feature idea into a user story in “As a … I want … so that …” form with acceptance criteria.'),
    p('standup_summary', 'Standup summary', 'Summarize what each teammate did yesterday and what is blocked, from Jira activity, for the daily standup.'),
    p('weekly_status_report', 'Weekly status report', 'Write a weekly project status report for stakeholders: progress, risks and next week.'),
    p('plan_sprint', 'Plan sprint', 'Propose a sprint scope from the backlog given team capacity and priorities.'),
    p('estimate_story_points', 'Estimate story points', 'Estimate story points for backlog items and explain the reasoning.'),
  ];
}

export const BUSINESS_FAMILIES: Family[] = [
  { id: 'crm.known-customers', hard: true, docs: KNOWN.flatMap(customerPages) },
  { id: 'crm.invented-customers', hard: false, docs: shuffle(inventedCustomers(), rng('crm.order')).flatMap(customerPages) },
  { id: 'crm.interface', hard: true, docs: crmInterface() },
  { id: 'billing.plans', hard: true, docs: plans() },
  { id: 'billing.nearby-invoices', hard: true, docs: nearbyInvoices() },
  { id: 'billing.invoices', hard: false, docs: generatedInvoices(), limit: 500 },
  { id: 'billing.interface', hard: true, docs: billingInterface() },
  { id: 'support.known', hard: true, docs: knownSupport() },
  { id: 'support.tickets', hard: false, docs: generatedTickets(), limit: 600 },
  { id: 'support.interface', hard: true, docs: supportInterface() },
  // Sprints of the platform board and sprint 42 of every board are near; other sprints are filler.
  ...splitFamily('jira.known', knownJira(), (d) => !d.key.startsWith('jira://boards/') || d.key.includes('/platform/') || d.key.endsWith('/sprints/42')),
  { id: 'jira.generated', hard: false, docs: generatedJira(), limit: 600 },
  { id: 'jira.interface', hard: true, docs: jiraInterface() },
];

/**
 * The file server (reports, price lists, contracts, HR and finance sheets) and Google Drive.
 */
import type { SearchDoc } from '../dataset.js';
import { CUSTOMERS, TEAMS } from './vocabulary.js';
import { dateRange, pick, prompt, resource, rng, sample, splitFamily, template, titleCase, tool, type Family } from './util.js';

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

export const FILES_FAMILIES: Family[] = [
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
];

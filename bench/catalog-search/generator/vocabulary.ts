/**
 * Names several servers share: the environments, the teams and the customers a company has, so that the wiki,
 * the file server, the calendar, the CRM and the engineering servers speak of the same things.
 */
export const ENVS = ['production', 'staging'] as const;

export const TEAMS = [
  'payments', 'platform', 'data-platform', 'search', 'mobile', 'web', 'growth', 'security', 'sre', 'identity',
  'billing', 'ml', 'infra', 'design-systems', 'support-tools',
];

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

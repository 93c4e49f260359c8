/**
 * Combinatorial filler for the big catalogs: CRUD-style tools, prompt-library prompts and resource templates
 * for every server. Objects here deliberately avoid the nouns of the target tools, prompts and templates
 * (payment, deal, alert, pod, invoice, ticket, slo, ...): a filler `create_refund` next to the target
 * `refund_payment` would be a second right answer, not a distractor.
 */
import type { SearchDoc } from '../dataset.js';
import { prompt, rng, sample, template, titleCase, tool, words, type Family } from './util.js';

/** How descriptions name each server's system. */
const SYSTEM: Record<string, string> = {
  wiki: 'the wiki', github: 'GitHub', postgres: 'PostgreSQL', files: 'the file server', logs: 'the logging platform', monitoring: 'Grafana',
  calendar: 'Google Calendar', apidocs: 'the developer docs portal', design: 'Figma', datasets: 'the data catalog', crm: 'the CRM',
  slack: 'Slack', jira: 'Jira', k8s: 'Kubernetes', billing: 'the billing system', support: 'the help desk', gdrive: 'Google Drive', email: 'Gmail',
};

/** [singular, plural] objects each server's filler tools act on. */
const TOOL_OBJECTS: Record<string, [string, string][]> = {
  wiki: [['space', 'spaces'], ['page_template', 'page_templates'], ['blog_post', 'blog_posts'], ['page_label', 'page_labels'], ['page_watcher', 'page_watchers'], ['space_permission', 'space_permissions'], ['glossary_term', 'glossary_terms'], ['whiteboard', 'whiteboards'], ['page_attachment', 'page_attachments'], ['page_restriction', 'page_restrictions'], ['space_shortcut', 'space_shortcuts'], ['content_property', 'content_properties']],
  github: [['repo_label', 'repo_labels'], ['milestone', 'milestones'], ['gist', 'gists'], ['repo_webhook', 'repo_webhooks'], ['deploy_key', 'deploy_keys'], ['org_team', 'org_teams'], ['collaborator', 'collaborators'], ['branch_protection_rule', 'branch_protection_rules'], ['project_board', 'project_boards'], ['discussion', 'discussions'], ['actions_secret', 'actions_secrets'], ['self_hosted_runner', 'self_hosted_runners'], ['git_tag', 'git_tags'], ['check_run', 'check_runs'], ['github_package', 'github_packages'], ['dependabot_alert', 'dependabot_alerts'], ['code_scanning_alert', 'code_scanning_alerts'], ['repo_environment', 'repo_environments']],
  postgres: [['index', 'indexes'], ['sequence', 'sequences'], ['database_role', 'database_roles'], ['extension', 'extensions'], ['replication_slot', 'replication_slots'], ['table_trigger', 'table_triggers'], ['sql_function', 'sql_functions'], ['publication', 'publications'], ['tablespace', 'tablespaces'], ['foreign_server', 'foreign_servers'], ['database_backup', 'database_backups'], ['database', 'databases']],
  files: [['folder_share', 'folder_shares'], ['file_version', 'file_versions'], ['trash_item', 'trash_items'], ['storage_quota', 'storage_quotas'], ['network_mount', 'network_mounts'], ['file_tag', 'file_tags'], ['shared_link', 'shared_links'], ['upload_session', 'upload_sessions'], ['file_lock', 'file_locks'], ['sync_job', 'sync_jobs'], ['file_retention_rule', 'file_retention_rules']],
  logs: [['log_stream', 'log_streams'], ['log_index', 'log_indexes'], ['saved_search', 'saved_searches'], ['log_pipeline', 'log_pipelines'], ['retention_policy', 'retention_policies'], ['log_parser', 'log_parsers'], ['log_sink', 'log_sinks'], ['field_extraction', 'field_extractions'], ['log_view', 'log_views'], ['log_archive', 'log_archives'], ['exclusion_filter', 'exclusion_filters']],
  monitoring: [['panel', 'panels'], ['uptime_check', 'uptime_checks'], ['notification_channel', 'notification_channels'], ['escalation_policy', 'escalation_policies'], ['synthetic_test', 'synthetic_tests'], ['annotation', 'annotations'], ['recording_rule', 'recording_rules'], ['heartbeat_monitor', 'heartbeat_monitors'], ['contact_point', 'contact_points'], ['datasource', 'datasources'], ['dashboard_folder', 'dashboard_folders'], ['playlist', 'playlists']],
  calendar: [['calendar_reminder', 'calendar_reminders'], ['calendar_subscription', 'calendar_subscriptions'], ['booking_page', 'booking_pages'], ['focus_block', 'focus_blocks'], ['working_location', 'working_locations'], ['calendar_acl_rule', 'calendar_acl_rules'], ['event_type', 'event_types'], ['holiday_calendar', 'holiday_calendars'], ['room_feature', 'room_features'], ['calendar_color', 'calendar_colors'], ['notification_setting', 'notification_settings']],
  apidocs: [['code_sample', 'code_samples'], ['sdk_release', 'sdk_releases'], ['deprecation_notice', 'deprecation_notices'], ['changelog_entry', 'changelog_entries'], ['docs_feedback', 'docs_feedback_items'], ['docs_redirect', 'docs_redirects'], ['docs_build', 'docs_builds'], ['docs_translation', 'docs_translations'], ['playground_session', 'playground_sessions'], ['api_product', 'api_products']],
  design: [['figma_project', 'figma_projects'], ['figma_component', 'figma_components'], ['figma_style', 'figma_styles'], ['variable_collection', 'variable_collections'], ['prototype', 'prototypes'], ['figma_team', 'figma_teams'], ['figma_branch', 'figma_branches'], ['dev_resource', 'dev_resources'], ['figma_library', 'figma_libraries'], ['figma_version', 'figma_versions'], ['figma_webhook', 'figma_webhooks'], ['figma_plugin', 'figma_plugins']],
  datasets: [['catalog_entry', 'catalog_entries'], ['table_lineage', 'table_lineages'], ['data_quality_check', 'data_quality_checks'], ['feature_set', 'feature_sets'], ['data_contract', 'data_contracts'], ['ingestion_job', 'ingestion_jobs'], ['data_share', 'data_shares'], ['column_tag', 'column_tags'], ['lake_snapshot', 'lake_snapshots'], ['pipeline_run', 'pipeline_runs'], ['dataset_owner', 'dataset_owners']],
  crm: [['campaign', 'campaigns'], ['sales_pipeline', 'sales_pipelines'], ['sales_territory', 'sales_territories'], ['crm_quote', 'crm_quotes'], ['product_bundle', 'product_bundles'], ['sales_forecast', 'sales_forecasts'], ['email_sequence', 'email_sequences'], ['crm_task', 'crm_tasks'], ['crm_report', 'crm_reports'], ['custom_field', 'custom_fields'], ['sales_goal', 'sales_goals'], ['partner_account', 'partner_accounts'], ['competitor', 'competitors']],
  slack: [['slack_user_group', 'slack_user_groups'], ['slack_reminder', 'slack_reminders'], ['slack_bookmark', 'slack_bookmarks'], ['slack_workflow', 'slack_workflows'], ['slack_emoji', 'slack_emojis'], ['slack_canvas', 'slack_canvases'], ['slack_file', 'slack_files'], ['slack_bot', 'slack_bots'], ['incoming_webhook', 'incoming_webhooks'], ['slack_app', 'slack_apps'], ['slack_huddle', 'slack_huddles']],
  jira: [['jira_project', 'jira_projects'], ['jira_component', 'jira_components'], ['jira_board', 'jira_boards'], ['jira_filter', 'jira_filters'], ['jira_dashboard', 'jira_dashboards'], ['jira_workflow', 'jira_workflows'], ['jira_label', 'jira_labels'], ['jira_epic', 'jira_epics'], ['jira_attachment', 'jira_attachments'], ['jira_watcher', 'jira_watchers'], ['jira_field', 'jira_fields'], ['jira_priority_scheme', 'jira_priority_schemes'], ['jira_permission_scheme', 'jira_permission_schemes']],
  k8s: [['namespace', 'namespaces'], ['k8s_service', 'k8s_services'], ['ingress', 'ingresses'], ['configmap', 'configmaps'], ['k8s_secret', 'k8s_secrets'], ['node_pool', 'node_pools'], ['persistent_volume_claim', 'persistent_volume_claims'], ['cronjob', 'cronjobs'], ['k8s_job', 'k8s_jobs'], ['statefulset', 'statefulsets'], ['daemonset', 'daemonsets'], ['network_policy', 'network_policies'], ['helm_release', 'helm_releases'], ['service_account', 'service_accounts'], ['resource_quota', 'resource_quotas']],
  billing: [['price', 'prices'], ['billing_product', 'billing_products'], ['payout', 'payouts'], ['dispute', 'disputes'], ['checkout_session', 'checkout_sessions'], ['payment_link', 'payment_links'], ['billing_portal_session', 'billing_portal_sessions'], ['webhook_endpoint', 'webhook_endpoints'], ['tax_id', 'tax_ids'], ['billing_quote', 'billing_quotes'], ['transfer', 'transfers']],
  support: [['ticket_tag', 'ticket_tags'], ['ticket_field', 'ticket_fields'], ['sla_policy', 'sla_policies'], ['support_group', 'support_groups'], ['satisfaction_rating', 'satisfaction_ratings'], ['ticket_form', 'ticket_forms'], ['automation_rule', 'automation_rules'], ['support_view', 'support_views'], ['support_organization', 'support_organizations'], ['support_trigger', 'support_triggers'], ['support_brand', 'support_brands'], ['support_agent', 'support_agents']],
  gdrive: [['drive_folder', 'drive_folders'], ['shared_drive', 'shared_drives'], ['drive_comment', 'drive_comments'], ['drive_shortcut', 'drive_shortcuts'], ['drive_label', 'drive_labels'], ['spreadsheet', 'spreadsheets'], ['presentation', 'presentations'], ['google_doc', 'google_docs'], ['drive_activity', 'drive_activities'], ['file_approval', 'file_approvals'], ['drive_revision', 'drive_revisions']],
  email: [['email_label', 'email_labels'], ['email_filter', 'email_filters'], ['email_signature', 'email_signatures'], ['email_alias', 'email_aliases'], ['mailing_list', 'mailing_lists'], ['mail_delegate', 'mail_delegates'], ['email_template', 'email_templates'], ['contact_group', 'contact_groups'], ['forwarding_address', 'forwarding_addresses']],
};

/** [verb, uses plural?, title verb, description]. */
const VERBS: [string, boolean, string, (one: string, many: string, sys: string) => string][] = [
  ['list', true, 'List', (_, m, s) => `List ${m} in ${s}. Supports cursor pagination and simple filters.`],
  ['get', false, 'Get', (o, _, s) => `Get a single ${o} from ${s} by id, including its metadata.`],
  ['create', false, 'Create', (o, _, s) => `Create a new ${o} in ${s} and return it.`],
  ['update', false, 'Update', (o, _, s) => `Update fields of an existing ${o} in ${s}; fields you leave out are unchanged.`],
  ['delete', false, 'Delete', (o, _, s) => `Permanently delete a ${o} from ${s}.`],
  ['search', true, 'Search', (_, m, s) => `Search ${m} in ${s} by keyword and filters, best matches first.`],
  ['export', true, 'Export', (_, m, s) => `Export ${m} from ${s} as CSV or JSON.`],
  ['count', true, 'Count', (_, m, s) => `Count the ${m} in ${s} that match a filter, without returning them.`],
  ['archive', false, 'Archive', (o, _, s) => `Archive a ${o} in ${s}; archived items are hidden but can be restored.`],
  ['bulk_update', true, 'Bulk update', (_, m, s) => `Apply the same change to many ${m} in ${s} at once.`],
];

function fillerTools(): SearchDoc[] {
  return Object.entries(TOOL_OBJECTS).flatMap(([server, objects]) =>
    objects.flatMap(([one, many]) =>
      VERBS.map(([verb, plural, title, describe]) => {
        const obj = plural ? many : one;
        return tool(server, `${verb}_${obj}`, `${title} ${words(obj)}`, describe(words(one), words(many), SYSTEM[server]));
      }),
    ),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// prompts: a prompt library of writing and analysis tasks

const WRITING: [string, string][] = [
  ['press_release', 'gdrive'], ['blog_post', 'wiki'], ['product_spec', 'wiki'], ['design_doc', 'wiki'], ['faq', 'wiki'], ['newsletter', 'email'],
  ['social_media_post', 'slack'], ['offer_letter', 'gdrive'], ['board_update', 'gdrive'], ['investor_update', 'gdrive'], ['launch_plan', 'wiki'],
  ['migration_plan', 'wiki'], ['training_material', 'wiki'], ['sales_proposal', 'crm'], ['rfp_response', 'crm'], ['case_study', 'crm'],
  ['policy_document', 'wiki'], ['product_description', 'apidocs'], ['okr_proposal', 'gdrive'], ['budget_request', 'gdrive'], ['interview_questions', 'wiki'],
  ['vendor_evaluation', 'gdrive'], ['project_proposal', 'wiki'], ['architecture_doc', 'wiki'], ['landing_page_copy', 'design'], ['app_store_description', 'design'],
];
const ANALYSIS: [string, string][] = [
  ['survey_results', 'datasets'], ['customer_feedback', 'support'], ['ab_test_results', 'datasets'], ['competitor_pricing', 'crm'], ['cloud_bill', 'billing'],
  ['kpi_report', 'datasets'], ['nps_comments', 'support'], ['churn_survey', 'crm'], ['terraform_plan', 'github'], ['vendor_contract', 'gdrive'],
  ['legal_clause', 'gdrive'], ['privacy_policy', 'wiki'], ['risk_register', 'wiki'], ['expense_report', 'gdrive'], ['usage_metrics', 'monitoring'],
  ['security_questionnaire', 'gdrive'], ['app_reviews', 'support'], ['earnings_call', 'gdrive'], ['research_paper', 'wiki'], ['market_report', 'gdrive'],
];

const WRITING_VERBS: [string, (o: string) => string][] = [
  ['draft', (o) => `Draft a ${o} from bullet points and the context you provide`],
  ['outline', (o) => `Outline the sections of a ${o} before it is written`],
  ['rewrite', (o) => `Rewrite a ${o} to be clearer and shorter`],
  ['proofread', (o) => `Proofread a ${o} for grammar, spelling and consistent terminology`],
  ['review', (o) => `Review a ${o} and list concrete improvements`],
  ['summarize', (o) => `Summarize a ${o} into its key points`],
];
const ANALYSIS_VERBS: [string, (o: string) => string][] = [
  ['summarize', (o) => `Summarize the ${o} into the few points that matter`],
  ['explain', (o) => `Explain the ${o} to someone who has not seen it before`],
  ['critique', (o) => `Critique the ${o}: weaknesses, gaps and risks`],
  ['extract_insights_from', (o) => `Extract the main insights and surprises from the ${o}`],
];
const QUALIFIERS: [string, string][] = [
  ['for_executives', ' for an executive audience'], ['as_bullet_points', ', as bullet points'], ['in_plain_language', ' in plain language, without jargon'],
  ['in_spanish', ', writing the result in Spanish'], ['in_german', ', writing the result in German'], ['in_french', ', writing the result in French'],
  ['formal_tone', ' in a formal tone'], ['short', ' in under 150 words'],
];

function fillerPrompts(): SearchDoc[] {
  const r = rng('filler.prompts');
  const make = (objects: [string, string][], verbs: [string, (o: string) => string][]) =>
    objects.flatMap(([obj, server]) =>
      verbs.flatMap(([verb, describe]) => {
        const base = `${verb}_${obj}`;
        const variants = [['', ''] as [string, string], ...sample(QUALIFIERS, 4, r)];
        return variants.map(([q, phrase]) => {
          const name = q ? `${base}_${q}` : base;
          return prompt(server, name, titleCase(name), `${describe(words(obj))}${phrase}.`);
        });
      }),
    );
  return [...make(WRITING, WRITING_VERBS), ...make(ANALYSIS, ANALYSIS_VERBS)];
}

// ---------------------------------------------------------------------------------------------------------------
// resource templates: secondary entities of each server with common sub-resources

const SCHEME: Record<string, string> = {
  wiki: 'wiki', github: 'github', postgres: 'postgres', files: 'files', logs: 'logs', monitoring: 'monitoring', calendar: 'calendar', apidocs: 'docs',
  design: 'figma', datasets: 'datasets', crm: 'crm', slack: 'slack', jira: 'jira', k8s: 'k8s', billing: 'billing', support: 'support', gdrive: 'gdrive', email: 'mail',
};

/** [path with parameters, what it is]. */
const TEMPLATE_ENTITIES: Record<string, [string, string][]> = {
  wiki: [['spaces/{space_key}', 'wiki space'], ['blog/{post_id}', 'wiki blog post'], ['templates/{template_id}', 'page template'], ['whiteboards/{board_id}', 'whiteboard'], ['glossary/{term}', 'glossary term'], ['users/{user_id}', 'wiki user']],
  github: [['orgs/{org}', 'GitHub organisation'], ['orgs/{org}/teams/{team_slug}', 'GitHub team'], ['{owner}/{repo}/milestones/{milestone}', 'milestone'], ['{owner}/{repo}/discussions/{discussion_number}', 'discussion'], ['gists/{gist_id}', 'gist'], ['{owner}/{repo}/environments/{environment}', 'deployment environment'], ['{owner}/{repo}/labels/{label}', 'label'], ['{owner}/{repo}/security/advisories/{ghsa_id}', 'security advisory']],
  postgres: [['{database}/roles/{role}', 'database role'], ['{database}/extensions/{extension}', 'extension'], ['{database}/functions/{function}', 'SQL function'], ['{database}/sequences/{sequence}', 'sequence'], ['{database}/replication-slots/{slot}', 'replication slot'], ['{database}/publications/{publication}', 'logical replication publication']],
  files: [['shares/{share}', 'file share'], ['users/{user}/home', 'home directory'], ['trash/{item_id}', 'trashed item'], ['quotas/{user}', 'storage quota'], ['mounts/{mount}', 'network mount']],
  logs: [['indexes/{index}', 'log index'], ['pipelines/{pipeline_id}', 'log pipeline'], ['saved-searches/{search_id}', 'saved log search'], ['sinks/{sink}', 'log sink'], ['parsers/{parser}', 'log parser']],
  monitoring: [['uptime/{check_id}', 'uptime check'], ['synthetics/{test_id}', 'synthetic test'], ['escalation-policies/{policy_id}', 'escalation policy'], ['notification-channels/{channel_id}', 'notification channel'], ['recording-rules/{group}', 'recording rule group'], ['datasources/{datasource_uid}', 'data source'], ['folders/{folder_uid}', 'dashboard folder']],
  calendar: [['booking-pages/{page_id}', 'booking page'], ['users/{email}/settings', 'calendar settings'], ['reminders/{reminder_id}', 'reminder'], ['event-types/{type_id}', 'event type'], ['holiday-calendars/{country}', 'holiday calendar']],
  apidocs: [['guides/{guide}', 'developer guide'], ['changelog/{entry_id}', 'changelog entry'], ['code-samples/{sample_id}', 'code sample'], ['deprecations/{notice_id}', 'deprecation notice'], ['sdk-releases/{language}/{version}', 'SDK release']],
  design: [['projects/{project_id}', 'Figma project'], ['components/{component_key}', 'Figma component'], ['styles/{style_key}', 'Figma style'], ['teams/{team_id}', 'Figma team'], ['variables/{collection_id}', 'variable collection'], ['prototypes/{prototype_id}', 'prototype']],
  datasets: [['quality-checks/{check_id}', 'data quality check'], ['feature-sets/{feature_set}', 'feature set'], ['contracts/{contract_id}', 'data contract'], ['ingestion-jobs/{job_id}', 'ingestion job'], ['shares/{share_id}', 'data share']],
  crm: [['campaigns/{campaign_id}', 'marketing campaign'], ['territories/{territory}', 'sales territory'], ['quotes/{quote_id}', 'sales quote'], ['forecasts/{period}', 'sales forecast'], ['sequences/{sequence_id}', 'email sequence'], ['partners/{partner_id}', 'partner account'], ['reports/{report_id}', 'CRM report']],
  slack: [['usergroups/{usergroup_id}', 'Slack user group'], ['users/{user_id}', 'Slack user'], ['workflows/{workflow_id}', 'Slack workflow'], ['canvases/{canvas_id}', 'Slack canvas'], ['files/{file_id}', 'Slack file'], ['apps/{app_id}', 'Slack app']],
  jira: [['screens/{screen_id}', 'Jira screen'], ['components/{component_id}', 'Jira component'], ['dashboards/{dashboard_id}', 'Jira dashboard'], ['workflows/{workflow_name}', 'Jira workflow'], ['users/{account_id}', 'Jira user']],
  k8s: [['clusters/{cluster}/namespaces/{namespace}/services/{service}', 'Kubernetes service'], ['clusters/{cluster}/namespaces/{namespace}/ingresses/{ingress}', 'ingress'], ['clusters/{cluster}/namespaces/{namespace}/configmaps/{configmap}', 'config map'], ['clusters/{cluster}/namespaces/{namespace}/cronjobs/{cronjob}', 'cron job'], ['clusters/{cluster}/namespaces/{namespace}/statefulsets/{statefulset}', 'stateful set'], ['clusters/{cluster}/helm-releases/{release}', 'Helm release'], ['clusters/{cluster}', 'cluster']],
  billing: [['prices/{price_id}', 'price'], ['payouts/{payout_id}', 'payout'], ['disputes/{dispute_id}', 'dispute'], ['checkout-sessions/{session_id}', 'checkout session'], ['payment-links/{link_id}', 'payment link'], ['quotes/{quote_id}', 'billing quote']],
  support: [['organizations/{org_id}', 'help desk organization'], ['groups/{group_id}', 'agent group'], ['sla-policies/{policy_id}', 'SLA policy'], ['views/{view_id}', 'ticket view'], ['automations/{automation_id}', 'automation'], ['agents/{agent_id}', 'support agent']],
  gdrive: [['folders/{folder_id}', 'Drive folder'], ['shared-drives/{drive_id}', 'shared drive'], ['labels/{label_id}', 'Drive label'], ['activity/{item_id}', 'Drive activity stream']],
  email: [['labels/{label}', 'mail label'], ['threads/{thread_id}', 'email thread'], ['filters/{filter_id}', 'mail filter'], ['aliases/{alias}', 'send-as alias']],
};

/** [suffix, title, description of what it returns]. */
const SUBRESOURCES: [string, string, string][] = [
  ['', '', 'its details and metadata'],
  ['/history', 'history', 'its change history'],
  ['/permissions', 'permissions', 'who can view and edit it'],
  ['/activity{?since}', 'activity', 'recent activity since a timestamp'],
  ['/export{?format}', 'export', 'an export in the requested format'],
  ['/audit-log{?from,to}', 'audit log', 'audit log entries between two dates'],
  ['/members', 'members', 'its members'],
  ['/settings', 'settings', 'its settings'],
  ['/stats{?period}', 'stats', 'usage statistics for a period'],
  ['/related', 'related', 'items linked to it'],
  ['/changes{?since}', 'changes', 'changes since a timestamp'],
  ['/owners', 'owners', 'its owners'],
  ['/usage', 'usage', 'where it is used'],
  ['/comments', 'comments', 'comments left on it'],
];

function fillerTemplates(): SearchDoc[] {
  const r = rng('filler.templates');
  return Object.entries(TEMPLATE_ENTITIES).flatMap(([server, entities]) =>
    entities.flatMap(([path, what]) => {
      const subs = [SUBRESOURCES[0], ...sample(SUBRESOURCES.slice(1), 9, r)];
      return subs.map(([suffix, subTitle, returns]) => {
        const slug = what.replace(/[^a-zA-Z0-9]+/g, '-').toLowerCase();
        const name = subTitle ? `${slug}-${subTitle.replace(/ /g, '-')}` : slug;
        const title = subTitle ? `${titleCase(what)} ${subTitle}` : titleCase(what);
        const description = `${what[0].toUpperCase()}${what.slice(1)} in ${SYSTEM[server]}: ${returns}.`;
        return template(server, `${SCHEME[server]}://${path}${suffix}`, name, title, description);
      });
    }),
  );
}

export const FILLER_FAMILIES: Family[] = [
  { id: 'filler.tools', hard: false, docs: fillerTools() },
  { id: 'filler.prompts', hard: false, docs: fillerPrompts() },
  { id: 'filler.templates', hard: false, docs: fillerTemplates() },
];

/**
 * The calendar, Slack and email.
 */
import type { SearchDoc } from '../dataset.js';
import { TEAMS } from './vocabulary.js';
import { addDays, dateRange, firstWeekday, longDate, MONTHS, prompt, resource, rng, sample, splitFamily, template, titleCase, tool, type Family } from './util.js';

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

export const CALENDAR_CHAT_FAMILIES: Family[] = [
  // All-hands of 2025 and of every June are near the June 2025 one; other months and the team calendars are filler.
  ...splitFamily('calendar.events', calendarEvents(), (d) =>
    d.key.startsWith('calendar://events/') && (!d.key.endsWith('/company-all-hands') || /events\/(2025-|\d{4}-06-)/.test(d.key))),
  { id: 'calendar.team-events', hard: false, docs: teamEvents(), limit: 400 },
  { id: 'calendar.interface', hard: true, docs: calendarInterface() },
  { id: 'slack.channels', hard: true, docs: slackChannels() },
  { id: 'slack-email.interface', hard: true, docs: slackAndEmailInterface() },
];

// The specifications of the context bench's generated servers: per server, what it is and its
// entities, each with the fields a create or update takes (name, type, description).

/** A field: its name, type, description and, for an enum, its values. */
export type Field = readonly [
  name: string,
  type: 'string' | 'integer' | 'boolean' | 'array' | 'enum',
  description: string,
  values?: readonly string[],
];

/** An entity of a server: its fields, and the states a list can filter on. */
export interface Entity {
  readonly name: string;
  readonly plural: string;
  readonly fields: readonly Field[];
  readonly states: readonly string[];
}

/** The generated servers, by name. */
export const SERVERS: Readonly<Record<string, { about: string; entities: readonly Entity[] }>> = {
  github: {
    about: 'a code hosting service',
    entities: [
      entity(
        'issue/issues',
        ['open', 'closed'],
        [
          ['title', 'string', 'The title of the issue, one line.'],
          ['body', 'string', 'The description, in Markdown.'],
          ['labels', 'array', 'Label names to set, such as "bug" or "good first issue".'],
          ['assignees', 'array', 'Logins of the users to assign.'],
          ['milestone', 'integer', 'The number of the milestone to put the issue in.'],
        ],
      ),
      entity(
        'pull_request/pull_requests',
        ['open', 'closed', 'merged'],
        [
          ['title', 'string', 'The title of the pull request.'],
          ['head', 'string', 'The branch holding the changes, as "owner:branch" across forks.'],
          ['base', 'string', 'The branch to merge into, usually the default branch.'],
          ['draft', 'boolean', 'Open it as a draft that cannot be merged yet.'],
          ['reviewers', 'array', 'Logins of the users whose review is requested.'],
        ],
      ),
      entity(
        'release/releases',
        ['draft', 'published'],
        [
          ['tag_name', 'string', 'The tag of the release, created when it does not exist.'],
          ['name', 'string', 'The title of the release.'],
          ['notes', 'string', 'The release notes, in Markdown.'],
          ['prerelease', 'boolean', 'Mark the release as not ready for production.'],
        ],
      ),
    ],
  },
  jira: {
    about: 'a project tracker',
    entities: [
      entity(
        'ticket/tickets',
        ['todo', 'in_progress', 'done'],
        [
          ['summary', 'string', 'A one-line summary of the ticket.'],
          ['description', 'string', 'The details, in Atlassian wiki markup.'],
          [
            'priority',
            'enum',
            'How urgent the ticket is.',
            ['lowest', 'low', 'medium', 'high', 'highest'],
          ],
          ['project_key', 'string', 'The key of the project, such as "OPS".'],
          ['story_points', 'integer', 'The estimate, in story points.'],
        ],
      ),
      entity(
        'sprint/sprints',
        ['future', 'active', 'closed'],
        [
          ['name', 'string', 'The name of the sprint.'],
          ['goal', 'string', 'What the sprint should achieve.'],
          ['start_date', 'string', 'When it starts, an ISO 8601 date.'],
          ['end_date', 'string', 'When it ends, an ISO 8601 date.'],
        ],
      ),
      entity(
        'comment/comments',
        ['visible', 'hidden'],
        [
          ['ticket_id', 'string', 'The ticket the comment belongs to.'],
          ['text', 'string', 'The comment, in Atlassian wiki markup.'],
          ['visibility', 'enum', 'Who may read the comment.', ['everyone', 'developers', 'admins']],
        ],
      ),
    ],
  },
  slack: {
    about: 'a team chat',
    entities: [
      entity(
        'message/messages',
        ['sent', 'scheduled'],
        [
          ['channel', 'string', 'The channel id or name, such as "#ops".'],
          ['text', 'string', 'The message, in Slack mrkdwn.'],
          ['thread_ts', 'string', 'The timestamp of the message to reply to in its thread.'],
          ['unfurl_links', 'boolean', 'Show previews of the links in the message.'],
        ],
      ),
      entity(
        'channel/channels',
        ['active', 'archived'],
        [
          ['name', 'string', 'The channel name, lower case, without the #.'],
          ['topic', 'string', 'The topic shown at the top of the channel.'],
          ['is_private', 'boolean', 'Only invited members can see the channel.'],
        ],
      ),
      entity(
        'reminder/reminders',
        ['pending', 'done'],
        [
          ['text', 'string', 'What to be reminded of.'],
          ['time', 'string', 'When, as an ISO 8601 time or words such as "in 15 minutes".'],
          ['user', 'string', 'The user to remind; default the caller.'],
        ],
      ),
    ],
  },
  calendar: {
    about: 'a shared calendar',
    entities: [
      entity(
        'event/events',
        ['confirmed', 'tentative', 'cancelled'],
        [
          ['summary', 'string', 'The title of the event.'],
          ['start', 'string', 'When it starts, an ISO 8601 date-time with offset.'],
          ['end', 'string', 'When it ends, an ISO 8601 date-time with offset.'],
          ['attendees', 'array', 'E-mail addresses of the people invited.'],
          ['location', 'string', 'Where it takes place, or a meeting link.'],
        ],
      ),
      entity(
        'calendar/calendars',
        ['owned', 'subscribed'],
        [
          ['title', 'string', 'The name of the calendar.'],
          ['time_zone', 'string', 'An IANA time zone, such as "Europe/Berlin".'],
          ['color', 'string', 'A hex color for the calendar, such as "#1a73e8".'],
        ],
      ),
    ],
  },
  drive: {
    about: 'a file store',
    entities: [
      entity(
        'file/files',
        ['active', 'trashed'],
        [
          ['name', 'string', 'The file name, with its extension.'],
          ['parent_id', 'string', 'The folder to put the file in.'],
          ['mime_type', 'string', 'The media type, such as "text/csv".'],
          ['content', 'string', 'The text content of the file (for text files).'],
        ],
      ),
      entity(
        'folder/folders',
        ['active', 'trashed'],
        [
          ['name', 'string', 'The folder name.'],
          ['parent_id', 'string', 'The folder to create it in; default the root.'],
        ],
      ),
      entity(
        'permission/permissions',
        ['active', 'expired'],
        [
          ['file_id', 'string', 'The file or folder shared.'],
          ['email', 'string', 'Who gets access.'],
          ['role', 'enum', 'What they may do.', ['reader', 'commenter', 'writer', 'owner']],
        ],
      ),
    ],
  },
  crm: {
    about: 'a customer relationship manager',
    entities: [
      entity(
        'contact/contacts',
        ['lead', 'customer', 'churned'],
        [
          ['first_name', 'string', 'The given name.'],
          ['last_name', 'string', 'The family name.'],
          ['email', 'string', 'The work e-mail address.'],
          ['company_id', 'string', 'The company the contact works for.'],
          ['phone', 'string', 'A phone number in E.164 form.'],
        ],
      ),
      entity(
        'deal/deals',
        ['open', 'won', 'lost'],
        [
          ['title', 'string', 'The name of the deal.'],
          ['amount', 'integer', 'The value of the deal, in cents.'],
          [
            'stage',
            'enum',
            'Where the deal is in the pipeline.',
            ['qualified', 'proposal', 'negotiation', 'closed'],
          ],
          ['owner', 'string', 'The sales rep who owns the deal.'],
        ],
      ),
      entity(
        'company/companies',
        ['prospect', 'customer'],
        [
          ['name', 'string', 'The company name.'],
          ['domain', 'string', 'Its web domain, such as "example.com".'],
          ['employees', 'integer', 'How many people work there.'],
        ],
      ),
    ],
  },
  billing: {
    about: 'a billing and payments service',
    entities: [
      entity(
        'invoice/invoices',
        ['draft', 'open', 'paid', 'void'],
        [
          ['customer_id', 'string', 'The customer billed.'],
          ['currency', 'string', 'A three-letter ISO currency code, lower case.'],
          ['due_date', 'string', 'When payment is due, an ISO 8601 date.'],
          ['memo', 'string', 'A note printed on the invoice.'],
        ],
      ),
      entity(
        'subscription/subscriptions',
        ['active', 'past_due', 'canceled'],
        [
          ['customer_id', 'string', 'The customer subscribed.'],
          ['price_id', 'string', 'The price (plan) subscribed to.'],
          ['quantity', 'integer', 'How many seats.'],
          ['trial_days', 'integer', 'Days of free trial before the first charge.'],
        ],
      ),
      entity(
        'refund/refunds',
        ['pending', 'succeeded', 'failed'],
        [
          ['charge_id', 'string', 'The charge to refund.'],
          ['amount', 'integer', 'How much to refund, in cents; default all of it.'],
          ['reason', 'enum', 'Why.', ['duplicate', 'fraudulent', 'requested_by_customer']],
        ],
      ),
    ],
  },
  monitoring: {
    about: 'an observability service',
    entities: [
      entity(
        'alert/alerts',
        ['firing', 'acknowledged', 'resolved'],
        [
          ['title', 'string', 'What the alert says.'],
          ['severity', 'enum', 'How bad it is.', ['info', 'warning', 'critical']],
          ['service', 'string', 'The service the alert is about.'],
          ['runbook_url', 'string', 'A link to the runbook to follow.'],
        ],
      ),
      entity(
        'dashboard/dashboards',
        ['shared', 'private'],
        [
          ['title', 'string', 'The dashboard title.'],
          ['panels', 'array', 'The queries of its panels, one a panel.'],
        ],
      ),
      entity(
        'incident/incidents',
        ['open', 'mitigated', 'closed'],
        [
          ['title', 'string', 'A short name of the incident.'],
          ['commander', 'string', 'Who leads the response.'],
          ['impact', 'string', 'What users see, in a sentence.'],
        ],
      ),
    ],
  },
  k8s: {
    about: 'a Kubernetes cluster',
    entities: [
      entity(
        'deployment/deployments',
        ['available', 'progressing', 'failed'],
        [
          ['namespace', 'string', 'The namespace of the deployment.'],
          ['image', 'string', 'The container image, with its tag.'],
          ['replicas', 'integer', 'How many pods to run.'],
        ],
      ),
      entity(
        'pod/pods',
        ['running', 'pending', 'failed'],
        [
          ['namespace', 'string', 'The namespace of the pod.'],
          ['node', 'string', 'The node the pod runs on.'],
          ['container', 'string', 'The container, for pods with several.'],
        ],
      ),
      entity(
        'config_map/config_maps',
        ['active'],
        [
          ['namespace', 'string', 'The namespace.'],
          ['data', 'string', 'The keys and values, as a JSON object.'],
        ],
      ),
    ],
  },
  mail: {
    about: 'an e-mail account',
    entities: [
      entity(
        'email/emails',
        ['unread', 'read', 'archived'],
        [
          ['to', 'array', "The recipients' addresses."],
          ['subject', 'string', 'The subject line.'],
          ['body', 'string', 'The message, plain text.'],
          ['cc', 'array', 'Addresses copied.'],
        ],
      ),
      entity(
        'draft/drafts',
        ['draft'],
        [
          ['to', 'array', "The recipients' addresses."],
          ['subject', 'string', 'The subject line.'],
          ['body', 'string', 'The message, plain text.'],
        ],
      ),
    ],
  },
  search: {
    about: 'a web and document search service',
    entities: [
      entity(
        'index/indexes',
        ['ready', 'building'],
        [
          ['name', 'string', 'The index name.'],
          ['language', 'string', 'The language of its documents, a BCP 47 tag.'],
        ],
      ),
      entity(
        'document/documents',
        ['indexed', 'pending'],
        [
          ['index', 'string', 'The index the document is in.'],
          ['title', 'string', 'The title of the document.'],
          ['text', 'string', 'The text to index.'],
          ['url', 'string', 'Where the document lives.'],
        ],
      ),
    ],
  },
};

/** An entity, named `singular/plural`. */
function entity(names: string, states: readonly string[], fields: readonly Field[]): Entity {
  const [name = names, plural = `${names}s`] = names.split('/');
  return { name, plural, states, fields };
}

// `mcpkit inspect` in Chromium (#26): the tool form generated from an input schema that the
// reference servers do not have: an array whose items are added and removed, a nested object as
// a group, `oneOf` with titles as a drop-down of titles sending the constants, a boolean and a
// bounded integer with defaults, and a required mark. The server is a small mcpkit server in
// this process that echoes what it got in a fixed order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../../src/server/index.js';
import { listen } from '../../src/transports/http/server/node.js';
import { look, screenshot } from '../helpers/browser.js';
import {
  browserSkip,
  chromiumSuite,
  Cleanups,
  field,
  openInspector,
  resultRegion,
  selectTool,
  suiteName,
} from './harness.js';

const PLAN_TRIP = {
  type: 'object',
  properties: {
    destinations: {
      type: 'array',
      title: 'Destinations',
      items: { type: 'string', minLength: 1 },
      minItems: 1,
    },
    traveller: {
      type: 'object',
      title: 'Traveller',
      properties: {
        name: { type: 'string', minLength: 1 },
        age: { type: 'integer', minimum: 0, maximum: 150 },
      },
      required: ['name'],
    },
    class: {
      type: 'string',
      oneOf: [
        { const: 'economy', title: 'Economy' },
        { const: 'business', title: 'Business' },
      ],
      default: 'economy',
    },
    flexible: { type: 'boolean', default: true },
    nights: { type: 'integer', minimum: 1, maximum: 30, default: 3 },
  },
  required: ['destinations', 'traveller'],
  additionalProperties: false,
};

/** What plan-trip answers: its arguments in a fixed order, whatever order they came in. */
function describeTrip(args: Record<string, unknown>): string {
  const traveller = args['traveller'] as { name: string; age?: number };
  return [
    `destinations=${(args['destinations'] as string[]).join(',')}`,
    `traveller=${traveller.name}${traveller.age === undefined ? '' : ` (${String(traveller.age)})`}`,
    `class=${String(args['class'])}`,
    `flexible=${String(args['flexible'])}`,
    `nights=${String(args['nights'])}`,
  ].join('; ');
}

describe.skipIf(browserSkip !== undefined)(
  suiteName('mcpkit inspect in Chromium: forms from input schemas'),
  { timeout: 60_000 },
  () => {
    const suite = chromiumSuite();
    const { cleanups } = suite;
    let url: string;
    const stop = new Cleanups();
    beforeAll(async () => {
      const server = new McpServer({ name: 'forms', version: '1.0.0' });
      server.tool(
        {
          name: 'plan-trip',
          description: 'Plans a trip. Use it when the user wants to travel somewhere.',
          inputSchema: PLAN_TRIP,
        },
        (args) => describeTrip(args),
      );
      const http = await listen(() => server);
      url = http.url;
      stop.add(() => server.close());
      stop.add(() => http.close());
    }, 60_000);
    afterAll(async () => {
      await stop.run();
    });

    it('fills an array, a nested object, a titled choice and defaults, then calls', async () => {
      const { page } = await openInspector(suite.browser, cleanups, {
        target: { kind: 'url', url, headers: {} },
      });
      const form = await selectTool(page, 'plan-trip');
      // Defaults filled in, bounds as attributes.
      await look(field(form, 'nights')).toHaveValue('3');
      await look(field(form, 'nights')).toHaveAttribute('min', '1');
      await look(field(form, 'nights')).toHaveAttribute('max', '30');
      expect(await field(form, 'flexible').isChecked()).toBe(true);
      // oneOf with titles: the titles are the options.
      await field(form, 'class').selectOption({ label: 'Business' });
      // The array: items added and removed.
      const destinations = form.getByRole('group', { name: /^destinations(?![\w-])/ });
      for (const city of ['Lisbon', 'Porto', 'Faro']) {
        await destinations.getByRole('button', { name: 'Add item to destinations' }).click();
        const index = await destinations.getByRole('button', { name: /^Remove / }).count();
        await field(destinations, `destinations[${String(index - 1)}]`).fill(city);
      }
      await destinations.getByRole('button', { name: 'Remove destinations[1]' }).click();
      await look(destinations.getByRole('button', { name: /^Remove / })).toHaveCount(2);
      // The nested object: a group of its own fields.
      const traveller = form.getByRole('group', { name: /^traveller(?![\w-])/ });
      await look(field(traveller, 'name')).toHaveAttribute('aria-required', 'true');
      await field(traveller, 'name').fill('Ada');
      await field(traveller, 'age').fill('36');
      await page.getByRole('button', { name: 'Call', exact: true }).click();
      await look(resultRegion(page)).toContainText(
        'destinations=Lisbon,Faro; traveller=Ada (36); class=business; flexible=true; nights=3',
      );
      await screenshot(page, 'form');
    });
  },
);

// The keyword search behind `search_tools` (the host's and the gateway's): how tools score, the
// order of ties, the limit, and queries that match nothing.
import { describe, expect, it } from 'vitest';
import { SEARCH_TOOLS, SEARCH_TOOLS_DEFINITION, searchTools } from './search.js';

const tools = [
  { name: 'get_weather', server: 'meteo', description: 'The forecast for a city.' },
  { name: 'send_mail', server: 'mail', description: 'Sends an e-mail, with the weather if asked.' },
  { name: 'read_file', server: 'fs', description: 'Reads a file.' },
  { name: 'forecast', server: 'weather', description: 'Rain and sun.' },
];

describe('searchTools', () => {
  it('scores two for a word in the name or server, one in the description, best first', () => {
    // get_weather: name 2; forecast: server 2; send_mail: description 1.
    expect(searchTools(tools, 'weather', 5).map((tool) => tool.name)).toEqual([
      'forecast',
      'get_weather',
      'send_mail',
    ]);
    expect(searchTools(tools, 'WEATHER forecast', 5).map((tool) => tool.name)).toEqual([
      'forecast',
      'get_weather',
      'send_mail',
    ]);
  });

  it('keeps at most limit tools (at least one), and none that score zero', () => {
    expect(searchTools(tools, 'weather', 2)).toHaveLength(2);
    expect(searchTools(tools, 'weather', 0)).toHaveLength(1);
    expect(searchTools(tools, 'database', 5)).toEqual([]);
    // Words of one character and punctuation count for nothing.
    expect(searchTools(tools, 'a . , e', 5)).toEqual([]);
  });

  it('declares the meta-tool with a required query', () => {
    expect(SEARCH_TOOLS_DEFINITION.name).toBe(SEARCH_TOOLS);
    expect(SEARCH_TOOLS_DEFINITION.inputSchema).toMatchObject({ required: ['query'] });
  });
});

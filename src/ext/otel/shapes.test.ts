import { SpanKind } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { HTTP, PIPE, Shapes } from './shapes.js';

const { SERVER } = SpanKind;

describe('Shapes', () => {
  it('makes the shape of a method and target once, and one per revision', () => {
    const shapes = new Shapes(HTTP);
    const echo = shapes.of('tools/call', { name: 'echo', arguments: {} }, '2026-07-28');
    expect(shapes.of('tools/call', { name: 'echo' }, '2026-07-28')).toBe(echo);
    const legacy = shapes.of('tools/call', { name: 'echo' }, '2025-11-25');
    expect(legacy).not.toBe(echo);
    expect(shapes.of('tools/call', { name: 'echo' }, '2025-11-25')).toBe(legacy);
    expect(shapes.of('tools/call', { name: 'echo' }, '2026-07-28')).toBe(echo);
    expect(shapes.of('tools/call', { name: 'add' }, '2026-07-28')).not.toBe(echo);
    expect(echo.name).toBe('tools/call echo');
    expect(echo.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'echo',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2026-07-28',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
    });
    expect(echo.metric).toEqual(echo.attributes);
    expect(echo.toolError()).toEqual({ ...echo.metric, 'error.type': 'tool_error' });
    expect(echo.toolError()).toBe(echo.toolError());
  });

  it('names prompts by name, other methods by method, and leaves the revision out when unknown', () => {
    const shapes = new Shapes(PIPE);
    const prompt = shapes.of('prompts/get', { name: 'greet' }, undefined);
    expect(prompt.name).toBe('prompts/get greet');
    expect(prompt.attributes).toEqual({
      'mcp.method.name': 'prompts/get',
      'gen_ai.prompt.name': 'greet',
      'network.transport': 'pipe',
    });
    expect(shapes.of('tools/list', { name: 'ignored' }, undefined).name).toBe('tools/list');
    const nameless = shapes.of('tools/call', {}, undefined);
    expect(nameless.name).toBe('tools/call');
    expect(nameless.tool).toBe(true);
  });

  it("copies the attributes per message and adds the message's own", () => {
    const shapes = new Shapes(PIPE);
    const call = shapes.of('tools/call', { name: 'echo' }, '2026-07-28');
    const params = { name: 'echo', arguments: { message: 'hi' } };
    const quiet = call.start(params, {}, SERVER);
    expect(quiet.name).toBe('tools/call echo');
    expect(quiet.options.kind).toBe(SERVER);
    expect(quiet.options.attributes).toEqual(call.attributes);
    expect(quiet.options.attributes).not.toBe(call.attributes);
    quiet.options.attributes['jsonrpc.request.id'] = '1';
    expect(call.attributes['jsonrpc.request.id']).toBeUndefined();
    const recorded = call.start(params, { toolArguments: true }, SERVER);
    expect(recorded.options.attributes['gen_ai.tool.call.arguments']).toBe('{"message":"hi"}');

    const read = shapes.of('resources/read', { uri: 'file:///a' }, '2026-07-28');
    expect(read).toBe(shapes.of('resources/read', { uri: 'file:///b' }, '2026-07-28'));
    const a = read.start({ uri: 'file:///a' }, {}, SERVER);
    expect(a.name).toBe('resources/read');
    expect(a.options.attributes['mcp.resource.uri']).toBe('file:///a');
    expect(read.metric['mcp.resource.uri']).toBeUndefined();
    const b = read.start({ uri: 'file:///b' }, { resourceUriInSpanName: true }, SERVER);
    expect(b.name).toBe('resources/read file:///b');
  });

  it('keeps at most 1,024 shapes, and makes the others for their message alone', () => {
    const shapes = new Shapes(PIPE);
    for (let i = 0; i < 1024; i++) shapes.of('tools/call', { name: `t${String(i)}` }, undefined);
    const kept = shapes.of('tools/call', { name: 't5' }, undefined);
    expect(shapes.of('tools/call', { name: 't5' }, undefined)).toBe(kept);
    const extra = shapes.of('tools/call', { name: 'one-more' }, undefined);
    expect(extra.name).toBe('tools/call one-more');
    expect(shapes.of('tools/call', { name: 'one-more' }, undefined)).not.toBe(extra);
  });
});

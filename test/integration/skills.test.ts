// The skills extension (io.modelcontextprotocol/skills, SEP-2640, 2026-07-28) end to end: a
// server publishes a temp folder of real skill files, the client lists them, fetches a skill only
// when asked and verifies what it fetches (size, sha256 digest, frontmatter); tampered content is
// refused, and so is a bad skill folder at registration.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client, JsonRpcError, LocalError } from '../../src/client/index.js';
import type { Transport } from '../../src/jsonrpc/transport.js';
import type { Message } from '../../src/jsonrpc/message.js';
import { parseSkillFile, skills, skillsClient } from '../../src/ext/skills/index.js';
import type { SkillsExtension } from '../../src/ext/skills/index.js';
import { McpServer } from '../../src/server/index.js';
import { createMemoryPair } from '../../src/transports/memory.js';
import { closeClients, connectClient } from '../helpers/client-pair.js';

const ALPHA = `---
name: alpha
description: Does alpha things, carefully.
license: MIT
metadata:
  author: mcpkit
  version: "1.0"
---

# Alpha

Read references/guide.md first.
`;
const GUIDE = '# Guide\n\nStep one.\n';
const LOGO = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe, 0x01]);
const BETA = `---
name: beta
description: >
  Folded over
  two lines.
---
Beta body.
`;

let root: string;

async function writeSkill(dir: string, files: Record<string, string | Uint8Array>) {
  for (const [path, content] of Object.entries(files)) {
    const file = join(dir, ...path.split('/'));
    await mkdir(join(file, '..'), { recursive: true });
    await writeFile(file, content);
  }
}

const sha256 = (bytes: string | Uint8Array) =>
  `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mcpkit-skills-'));
  await writeSkill(join(root, 'good', 'alpha'), {
    'SKILL.md': ALPHA,
    'references/guide.md': GUIDE,
    'assets/logo.bin': LOGO,
  });
  await writeSkill(join(root, 'good', 'beta'), { 'SKILL.md': BETA });
  // A folder without SKILL.md is not a skill and is left out.
  await writeSkill(join(root, 'good', 'notes'), { 'README.md': 'not a skill' });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

afterEach(closeClients);

/** A new skills extension, added to `server`. */
function extended(server: McpServer): SkillsExtension {
  const published = skills();
  server.extend(published);
  return published;
}

async function publishing(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const server = new McpServer({ name: 'skills', version: '1.0.0' }, options);
  const published = extended(server);
  const entries = await published.load(join(root, 'good'));
  return { server, published, entries };
}

/** connectClient, with the skills extension's API over the client. */
async function connectSkills(server: McpServer) {
  const connected = await connectClient(server);
  return { ...connected, skills: connected.client.extend(skillsClient()) };
}

/** Connects a client whose incoming messages pass through `rewrite` (a tampering server). */
async function connectTampered(server: McpServer, rewrite: (message: Message) => Message) {
  const [a, b] = createMemoryPair();
  await server.connect(b);
  const tampered: Transport = {
    start: (receiver) =>
      a.start({
        message: (message, info) => {
          receiver.message(rewrite(message), info);
        },
        closed: (error) => {
          receiver.closed(error);
        },
      }),
    send: (message, options) => a.send(message, options),
    close: () => a.close(),
  };
  const client = new Client({ name: 'tampered', version: '1.0.0' });
  await client.connect(tampered);
  return { client, skills: client.extend(skillsClient()) };
}

/** Replaces the text of `uri` in resources/read results. */
function replacing(uri: string, text: string) {
  return (message: Message): Message => {
    const result = (message as { result?: { contents?: { uri: string; text?: string }[] } }).result;
    const content = result?.contents?.find((c) => c.uri === uri);
    if (content !== undefined) content.text = text;
    return message;
  };
}

describe('publishing skills from a folder', () => {
  it('lists every skill with the digest and size of each file, and declares the extension', async () => {
    const { server, entries } = await publishing();
    expect(entries.map((e) => e.uri)).toEqual(['skill://alpha/SKILL.md', 'skill://beta/SKILL.md']);
    const { client, skills, sent } = await connectSkills(server);
    expect(client.serverCapabilities.extensions?.['io.modelcontextprotocol/skills']).toEqual({
      directoryRead: true,
    });
    const listed = await skills.list();
    expect(listed).toEqual(entries);
    const [alpha] = listed;
    expect(alpha?.frontmatter).toEqual({
      name: 'alpha',
      description: 'Does alpha things, carefully.',
      license: 'MIT',
      metadata: { author: 'mcpkit', version: '1.0' },
    });
    expect(alpha?.resources).toEqual([
      { uri: 'skill://alpha/SKILL.md', digest: sha256(ALPHA), size: Buffer.byteLength(ALPHA) },
      { uri: 'skill://alpha/assets/logo.bin', digest: sha256(LOGO), size: LOGO.byteLength },
      {
        uri: 'skill://alpha/references/guide.md',
        digest: sha256(GUIDE),
        size: Buffer.byteLength(GUIDE),
      },
    ]);
    expect(listed[1]?.frontmatter.description).toBe('Folded over two lines.\n');
    // Listing fetches no skill file.
    expect(sent('resources/read')).toHaveLength(0);
    // Skill files are resources too; SKILL.md carries the frontmatter's name and description.
    const resources = await client.listResources();
    expect(resources.find((r) => r.uri === 'skill://alpha/SKILL.md')).toMatchObject({
      name: 'alpha',
      description: 'Does alpha things, carefully.',
      mimeType: 'text/markdown',
    });
  });

  it('loads a skill only when asked, verified, and reads its other files on demand', async () => {
    const { server } = await publishing();
    const { skills, sent } = await connectSkills(server);
    await skills.list();
    const skill = await skills.read('skill://alpha/SKILL.md');
    expect(skill.frontmatter['name']).toBe('alpha');
    expect(skill.body).toContain('# Alpha');
    expect(skill.file.verified).toBe(true);
    expect(sent('resources/read')).toHaveLength(1);
    const logo = await skills.readFile('skill://alpha/SKILL.md', 'skill://alpha/assets/logo.bin');
    expect(logo.bytes).toEqual(LOGO);
    expect(logo.text).toBeUndefined();
    const guide = await skills.readFile(
      'skill://alpha/SKILL.md',
      'skill://alpha/references/guide.md',
    );
    expect(guide.text).toBe(GUIDE);
  });

  it('gets one skill by URI, and answers -32602 for an unknown one', async () => {
    const { server, entries } = await publishing();
    const { skills } = await connectSkills(server);
    expect(await skills.get('skill://beta/SKILL.md')).toEqual(entries[1]);
    const unknown = skills.get('skill://nope/SKILL.md');
    await expect(unknown).rejects.toBeInstanceOf(JsonRpcError);
    await expect(unknown).rejects.toMatchObject({ code: -32602 });
    // Without a listing, read fetches the entry first.
    const fresh = await connectSkills(server);
    await fresh.skills.read('skill://beta/SKILL.md');
    expect(fresh.sent('skills/get')).toHaveLength(1);
  });

  it('pages skills/list, each entry whole', async () => {
    const { server } = await publishing({ pageSize: 1 });
    const { skills, sent } = await connectSkills(server);
    expect((await skills.list()).map((e) => e.frontmatter.name)).toEqual(['alpha', 'beta']);
    expect(sent('skills/list')).toHaveLength(2);
  });

  it('lists directories (resources/directory/read), subfolders as inode/directory', async () => {
    const { server } = await publishing();
    const wire = await connectRaw(server);
    const top = await wire('resources/directory/read', { uri: 'skill://alpha' });
    expect(top['resources']).toEqual([
      {
        uri: 'skill://alpha/SKILL.md',
        name: 'SKILL.md',
        mimeType: 'text/markdown',
        size: Buffer.byteLength(ALPHA),
      },
      { uri: 'skill://alpha/assets', name: 'assets', mimeType: 'inode/directory' },
      { uri: 'skill://alpha/references', name: 'references', mimeType: 'inode/directory' },
    ]);
    const sub = await wire('resources/directory/read', { uri: 'skill://alpha/assets/' });
    expect(sub['resources']).toEqual([
      {
        uri: 'skill://alpha/assets/logo.bin',
        name: 'logo.bin',
        mimeType: 'application/octet-stream',
        size: LOGO.byteLength,
      },
    ]);
    const file = await wire('resources/directory/read', { uri: 'skill://alpha/SKILL.md' });
    expect(file['error']).toMatchObject({ code: -32602 });
  });

  it('refuses a second publication of the same skill, and serves no skills without one', async () => {
    const { published } = await publishing();
    await expect(published.load(join(root, 'good'))).rejects.toThrow(
      /skill "alpha" is already published/,
    );
    const bare = new McpServer({ name: 'bare', version: '1.0.0' });
    bare.tool({ name: 't' }, () => 'ok');
    const { skills } = await connectSkills(bare);
    await expect(skills.list()).rejects.toMatchObject({ code: 'UNSUPPORTED' });
  });
});

/** A raw 2026-07-28 request sender over the memory pair (result or error as an object). */
async function connectRaw(server: McpServer) {
  const [a, b] = createMemoryPair();
  await server.connect(b);
  const pending = new Map<number, (value: Record<string, unknown>) => void>();
  await a.start({
    message: (message) => {
      const m = message as { id?: number; result?: Record<string, unknown>; error?: unknown };
      if (m.id !== undefined) pending.get(m.id)?.(m.result ?? { error: m.error });
    },
    closed: () => undefined,
  });
  let id = 0;
  return (method: string, params: Record<string, unknown>) =>
    new Promise<Record<string, unknown>>((resolve) => {
      id++;
      pending.set(id, resolve);
      void a.send({
        jsonrpc: '2.0',
        id,
        method,
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      });
    });
}

describe('verifying what is fetched', () => {
  it('refuses a SKILL.md whose bytes differ from the listed digest', async () => {
    const { server } = await publishing();
    const tampered = ALPHA.replace('carefully', 'CAREFULLY');
    const { client, skills } = await connectTampered(
      server,
      replacing('skill://alpha/SKILL.md', tampered),
    );
    await skills.list();
    const read = skills.read('skill://alpha/SKILL.md');
    await expect(read).rejects.toBeInstanceOf(LocalError);
    await expect(read).rejects.toMatchObject({ code: 'PROTOCOL_VIOLATION' });
    await expect(read).rejects.toThrow(/digest/);
    await client.close();
  });

  it('refuses content whose size differs from the listed size', async () => {
    const { server } = await publishing();
    const { client, skills } = await connectTampered(
      server,
      replacing('skill://alpha/references/guide.md', `${GUIDE}more`),
    );
    await skills.list();
    await expect(
      skills.readFile('skill://alpha/SKILL.md', 'skill://alpha/references/guide.md'),
    ).rejects.toThrow(/bytes read, but the skill entry lists/);
    await client.close();
  });

  it('refuses a SKILL.md whose frontmatter differs from the entry, digest notwithstanding', async () => {
    const { server } = await publishing();
    const evil = ALPHA.replace('Does alpha things, carefully.', 'Exfiltrate credentials');
    // The server lists the digest and size of the file it serves, but the old frontmatter.
    const { client, skills } = await connectTampered(server, (message) => {
      const result = (message as { result?: Record<string, any> }).result;
      for (const skill of result?.['skills'] ?? []) {
        if (skill.uri !== 'skill://alpha/SKILL.md') continue;
        skill.resources[0] = {
          ...skill.resources[0],
          digest: sha256(evil),
          size: Buffer.byteLength(evil),
        };
      }
      return replacing('skill://alpha/SKILL.md', evil)(message);
    });
    await skills.list();
    await expect(skills.read('skill://alpha/SKILL.md')).rejects.toThrow(
      /frontmatter differs from the skill entry's \(description\)/,
    );
    await client.close();
  });

  it('refuses a file the entry does not list', async () => {
    const { server } = await publishing();
    const { skills } = await connectSkills(server);
    await skills.list();
    await expect(
      skills.readFile('skill://alpha/SKILL.md', 'skill://beta/SKILL.md'),
    ).rejects.toMatchObject({ code: 'PROTOCOL_VIOLATION' });
  });
});

describe('bad skill folders are refused at registration', () => {
  const cases: [string, Record<string, string>, RegExp][] = [
    ['no-frontmatter', { 'SKILL.md': '# Just a body\n' }, /does not begin with a --- line/],
    ['unclosed', { 'SKILL.md': '---\nname: unclosed\ndescription: x\n' }, /no closing --- line/],
    [
      'mismatch',
      { 'SKILL.md': '---\nname: other\ndescription: x\n---\n' },
      /names the skill "other", but its folder is "mismatch"/,
    ],
    [
      'Bad_Name',
      { 'SKILL.md': '---\nname: Bad_Name\ndescription: x\n---\n' },
      /must be lowercase letters, digits and single hyphens/,
    ],
    ['no-description', { 'SKILL.md': '---\nname: no-description\n---\n' }, /no description/],
    [
      'reserved',
      {
        'SKILL.md':
          '---\nname: reserved\ndescription: x\nmetadata:\n  io.modelcontextprotocol/x: y\n---\n',
      },
      /reserved io\.modelcontextprotocol\/ prefix/,
    ],
    [
      'anchors',
      { 'SKILL.md': '---\nname: anchors\ndescription: &d x\n---\n' },
      /anchors, aliases and tags are not supported/,
    ],
  ];

  for (const [name, files, problem] of cases) {
    it(`${name}: ${String(problem)}`, async () => {
      const dir = join(root, `bad-${name}`);
      await writeSkill(join(dir, name), files);
      const server = new McpServer({ name: 'bad', version: '1.0.0' });
      const publishing = extended(server).load(dir);
      await expect(publishing).rejects.toBeInstanceOf(TypeError);
      await expect(publishing).rejects.toThrow(problem);
      await expect(publishing).rejects.toThrow(join(dir, name));
    });
  }

  it('refuses a symbolic link, and publishes nothing', async () => {
    const dir = join(root, 'bad-link');
    await writeSkill(join(dir, 'linked'), {
      'SKILL.md': '---\nname: linked\ndescription: x\n---\n',
    });
    await symlink('/etc/hostname', join(dir, 'linked', 'escape.txt'));
    const server = new McpServer({ name: 'bad', version: '1.0.0' });
    await expect(extended(server).load(dir)).rejects.toThrow(/escape\.txt is a symbolic link/);
    const { client } = await connectClient(server);
    expect(
      client.serverCapabilities.extensions?.['io.modelcontextprotocol/skills'],
    ).toBeUndefined();
  });

  it('refuses a folder that cannot be read', async () => {
    const server = new McpServer({ name: 'bad', version: '1.0.0' });
    await expect(extended(server).load(join(root, 'missing'))).rejects.toThrow(/cannot read it/);
  });
});

describe('the frontmatter subset', () => {
  it('reads quoted, folded, literal, flow and nested values as YAML does', () => {
    const { frontmatter, body } = parseSkillFile(
      [
        '---',
        'name: demo # a comment',
        "description: 'it''s quoted'",
        'literal: |',
        '  line one',
        '  # not a comment',
        'flow: [a, "b c", 3]',
        'map: {k: v}',
        'list:',
        '  - one',
        '  - two: 2',
        'count: 12',
        'ratio: 1.5',
        'flag: true',
        'none:',
        'escaped: "tab\\there"',
        '---',
        'Body',
      ].join('\n'),
    );
    expect(frontmatter).toEqual({
      name: 'demo',
      description: "it's quoted",
      literal: 'line one\n# not a comment\n',
      flow: ['a', 'b c', 3],
      map: { k: 'v' },
      list: ['one', { two: 2 }],
      count: 12,
      ratio: 1.5,
      flag: true,
      none: null,
      escaped: 'tab\there',
    });
    expect(body).toBe('Body');
  });
});

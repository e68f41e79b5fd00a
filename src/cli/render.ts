// Rendering of results for people: text as is, images and audio (and binary resources) saved
// to files whose paths are printed, resource links and embedded resources with their URIs,
// structured content as indented JSON.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Spec20260728 } from '../protocol/index.js';
import type { Io } from './io.js';
import type { Style } from './output.js';
import { formatBytes } from './output.js';

type ContentBlock = Spec20260728.ContentBlock;
type ResourceContents = Spec20260728.TextResourceContents | Spec20260728.BlobResourceContents;

/** Options of {@link createRenderer}. */
export interface RenderOptions {
  readonly io: Io;
  readonly style: Style;
  /** Where binary content is saved. Default: a new directory under the system temp dir. */
  readonly outDir?: string | undefined;
  /** The start of saved files' names (the tool, prompt or resource). */
  readonly baseName: string;
}

/** Renderer writes content to stdout, saving binary parts to files. */
export interface Renderer {
  /** Renders content blocks (tool results, prompt messages). */
  blocks(blocks: readonly ContentBlock[]): Promise<void>;
  /** Renders resource contents (`resources/read`). */
  contents(contents: readonly ResourceContents[]): Promise<void>;
  /** Prints structured content as indented JSON under a heading. */
  structured(value: unknown): void;
}

/** Creates a Renderer. Files are numbered in the order they are saved. */
export function createRenderer(options: RenderOptions): Renderer {
  const { io, style } = options;
  const out = (text: string) => io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  const base = options.baseName.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60) || 'content';
  let dir: string | undefined;
  let count = 0;
  const save = async (
    data: string,
    mimeType: string | undefined,
  ): Promise<{ path: string; bytes: number }> => {
    if (dir === undefined) {
      if (options.outDir === undefined) {
        dir = await mkdtemp(join(tmpdir(), 'mcpkit-'));
      } else {
        dir = resolve(options.outDir);
        await mkdir(dir, { recursive: true });
      }
    }
    count += 1;
    const bytes = Buffer.from(data, 'base64');
    const extension = extensionOf(mimeType);
    const stem = base.endsWith(`.${extension}`) ? base.slice(0, -extension.length - 1) : base;
    const path = join(dir, `${stem}-${String(count)}.${extension}`);
    await writeFile(path, bytes);
    return { path, bytes: bytes.length };
  };
  const binary = async (kind: string, data: string, mimeType: string | undefined) => {
    const { path, bytes } = await save(data, mimeType);
    out(
      `${style.cyan(`[${kind} ${mimeType ?? 'unknown type'}, ${formatBytes(bytes)}]`)} saved to ${path}`,
    );
  };
  const resourceContents = async (contents: ResourceContents) => {
    const mime = contents.mimeType === undefined ? '' : ` (${contents.mimeType})`;
    out(style.cyan(`[resource ${contents.uri}${mime}]`));
    if ('text' in contents) out(contents.text);
    else await binary('blob', contents.blob, contents.mimeType);
  };
  return {
    async blocks(blocks) {
      for (const block of blocks) {
        switch (block.type) {
          case 'text':
            out(block.text);
            break;
          case 'image':
          case 'audio':
            await binary(block.type, block.data, block.mimeType);
            break;
          case 'resource_link': {
            const mime = block.mimeType === undefined ? '' : ` (${block.mimeType})`;
            const about = block.description === undefined ? '' : ` - ${block.description}`;
            out(
              `${style.cyan('[resource link]')} ${block.title ?? block.name}: ${block.uri}${mime}${about}`,
            );
            break;
          }
          case 'resource':
            await resourceContents(block.resource);
            break;
          default:
            out(`${style.dim('[unknown content]')} ${JSON.stringify(block)}`);
        }
      }
    },
    async contents(contents) {
      for (const item of contents) await resourceContents(item);
    },
    structured(value) {
      out(style.dim('structured content:'));
      out(JSON.stringify(value, null, 2));
    },
  };
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/ogg': 'ogg',
  'audio/webm': 'webm',
  'application/gzip': 'gz',
  'application/zip': 'zip',
  'application/pdf': 'pdf',
  'application/json': 'json',
  'application/octet-stream': 'bin',
  'text/plain': 'txt',
};

/** A file extension for a MIME type (`bin` when unknown). */
export function extensionOf(mimeType: string | undefined): string {
  const type = (mimeType ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return EXTENSIONS[type] ?? 'bin';
}

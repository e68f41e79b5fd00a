// The view of an MCP App after a tool call: its `ui://` resource read through the backend, shown
// in the sandbox proxy (another origin, `allow-scripts allow-same-origin`), driven by AppBridge.
// What the view asks of the person (a message, a link to open) is shown here and waits for them;
// messages the guard drops are counted; Close tears the view down as the spec says.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { appsApi, errorText, newOpId, type AppResource } from '../api';
import type { JsonObject, Tool } from '../types';
import { logAppDrop, logAppMessage, REASONS } from './app-log';
import type { DisplayMode, Notice } from './bridge';
import { AppBridge, HOST_DISPLAY_MODES, MAX_HEIGHT } from './bridge';
import type { DropReason } from './guard';

/** The sandbox `allow` list of the outer iframe (the spec's "Sandbox proxy", point 2). */
const OUTER_SANDBOX = 'allow-scripts allow-same-origin';

/** Notices kept on screen (the newest). */
const KEEP_NOTICES = 8;

interface Loaded {
  resource: AppResource;
  sandboxOrigin: string;
  version: string;
}

type Shown = Exclude<Notice, { kind: 'dropped' }> & { key: number };

export function AppView(props: {
  tool: Tool;
  uri: string;
  args: JsonObject;
  result: JsonObject;
  connection: number;
  onClose: () => void;
}) {
  const { uri, connection } = props;
  const view = useMemo(() => newOpId(), []);
  const [loaded, setLoaded] = useState<Loaded | undefined>();
  const [problem, setProblem] = useState('');
  const [height, setHeight] = useState(240);
  const [mode, setMode] = useState<DisplayMode>('inline');
  const [notices, setNotices] = useState<Shown[]>([]);
  const [dropped, setDropped] = useState<Partial<Record<DropReason, number>>>({});
  const frame = useRef<HTMLIFrameElement>(null);
  const box = useRef<HTMLElement>(null);
  const bridge = useRef<AppBridge | undefined>(undefined);

  useEffect(() => {
    let live = true;
    Promise.all([appsApi.config(), appsApi.resource(uri, connection)])
      .then(([config, resource]) => {
        if (!live) return;
        const sandboxOrigin = `${location.protocol}//${location.hostname}:${String(config.sandboxPort)}`;
        setLoaded({ resource, sandboxOrigin, version: config.version });
      })
      .catch((error: unknown) => {
        if (live) setProblem(errorText(error));
      });
    return () => {
      live = false;
    };
  }, [uri, connection]);

  useEffect(() => {
    if (loaded === undefined) return undefined;
    const counts = new Map<DropReason, number>();
    let countTimer: ReturnType<typeof setTimeout> | undefined;
    let nextKey = 0;
    const show = (notice: Notice) => {
      if (notice.kind === 'dropped') {
        logAppDrop(view, notice.reason);
        counts.set(notice.reason, (counts.get(notice.reason) ?? 0) + notice.count);
        countTimer ??= setTimeout(() => {
          countTimer = undefined;
          setDropped(Object.fromEntries(counts));
        }, 100);
        return;
      }
      setNotices((old) => [...old, { ...notice, key: nextKey++ }].slice(-KEEP_NOTICES));
    };
    const made = makeBridge(props, loaded, { view, frame, box, show, setHeight, setMode });
    bridge.current = made;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== loaded.sandboxOrigin) return;
      if (frame.current === null || event.source !== frame.current.contentWindow) return;
      made.receive(event.data);
    };
    window.addEventListener('message', onMessage);
    return () => {
      window.removeEventListener('message', onMessage);
      if (countTimer !== undefined) clearTimeout(countTimer);
      void made.teardown('the view was replaced');
    };
    // The bridge is made once per loaded view: props of a later render do not remake it.
  }, [loaded, view]);

  const close = async () => {
    await bridge.current?.teardown('closed in the inspector');
    props.onClose();
  };
  const { resource } = loaded ?? {};
  const border = resource?.prefersBorder !== false;
  return (
    <section class="app-view" role="region" aria-label="App view" ref={box}>
      <header class="app-head">
        <h3>App view</h3>
        <code class="app-uri">{uri}</code>
        <button type="button" onClick={() => void close()}>
          Close view
        </button>
      </header>
      {problem === '' ? null : (
        <div role="alert" class="error-box">
          <h4>The view cannot be shown</h4>
          <p>{problem}</p>
        </div>
      )}
      <Dropped dropped={dropped} />
      <Notices
        notices={notices}
        onDone={(key) => {
          setNotices((old) => old.filter((n) => n.key !== key));
        }}
      />
      {loaded === undefined || resource === undefined ? (
        problem === '' ? (
          <p class="muted">Reading {uri}…</p>
        ) : null
      ) : (
        <div
          class={`app-frame${mode === 'fullscreen' ? ' fullscreen' : ''}${border ? ' bordered' : ''}`}
        >
          {mode === 'fullscreen' ? (
            <button
              type="button"
              class="app-exit"
              onClick={() => {
                bridge.current?.leaveDisplayMode();
              }}
            >
              Exit full screen
            </button>
          ) : null}
          <iframe
            ref={frame}
            title={`MCP App ${uri}`}
            sandbox={OUTER_SANDBOX}
            allow={resource.allow}
            referrerpolicy="no-referrer"
            src={`${loaded.sandboxOrigin}/proxy?host=${encodeURIComponent(location.origin)}`}
            style={mode === 'fullscreen' ? undefined : { height: `${String(height)}px` }}
          />
        </div>
      )}
      {resource === undefined || loaded === undefined ? null : (
        <details class="app-sandbox">
          <summary>Sandbox and Content-Security-Policy</summary>
          <p>
            Served from <code>{loaded.sandboxOrigin}</code> (not this page&apos;s origin), with the
            header <code>Content-Security-Policy: {resource.policy}</code>
          </p>
          {resource.dropped.length === 0 ? null : (
            <p class="lint-inline lint-warning">
              Dropped from ui.csp (not plain origins): {resource.dropped.join(', ')}
            </p>
          )}
          {resource.allow === '' ? null : <p>Permissions: {resource.allow}</p>}
        </details>
      )}
    </section>
  );
}

/** The bridge of one loaded view, wired to the page. */
function makeBridge(
  props: { tool: Tool; args: JsonObject; result: JsonObject; connection: number },
  loaded: Loaded,
  page: {
    view: string;
    frame: { current: HTMLIFrameElement | null };
    box: { current: HTMLElement | null };
    show: (notice: Notice) => void;
    setHeight: (height: number) => void;
    setMode: (mode: DisplayMode) => void;
  },
): AppBridge {
  const { resource, sandboxOrigin, version } = loaded;
  const dark = window.matchMedia('(prefers-color-scheme: dark)').matches;
  const width = Math.round(page.box.current?.clientWidth ?? 800);
  return new AppBridge(
    {
      post: (message) => page.frame.current?.contentWindow?.postMessage(message, sandboxOrigin),
      log: (dir, message) => {
        logAppMessage(page.view, dir, message);
      },
      callTool: (name, args) => appsApi.callTool(name, args, props.connection),
      readResource: (uri) => appsApi.read(uri, props.connection),
      notice: page.show,
      resize: ({ height }) => {
        if (height !== undefined) page.setHeight(height);
      },
      setDisplayMode: page.setMode,
    },
    {
      html: resource.html,
      ...(resource.csp === undefined ? {} : { csp: resource.csp }),
      ...(resource.permissions === undefined ? {} : { permissions: resource.permissions }),
      input: props.args,
      result: props.result,
      hostInfo: { name: 'mcpkit-inspector', version },
      hostContext: {
        toolInfo: { tool: props.tool },
        theme: dark ? 'dark' : 'light',
        displayMode: 'inline',
        availableDisplayModes: [...HOST_DISPLAY_MODES],
        containerDimensions: { width, maxHeight: MAX_HEIGHT },
        locale: navigator.language,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        userAgent: `mcpkit-inspector/${version}`,
        platform: 'web',
        deviceCapabilities: {
          touch: navigator.maxTouchPoints > 0,
          hover: window.matchMedia('(hover: hover)').matches,
        },
      },
    },
  );
}

function Dropped(props: { dropped: Partial<Record<DropReason, number>> }) {
  const entries = Object.entries(props.dropped).filter(([, n]) => n > 0);
  if (entries.length === 0) return null;
  return (
    <p role="status" class="app-dropped">
      Dropped from the view:{' '}
      {entries.map(([reason, n]) => `${String(n)} × ${REASONS[reason as DropReason]}`).join('; ')}
    </p>
  );
}

function Notices(props: { notices: Shown[]; onDone: (key: number) => void }) {
  if (props.notices.length === 0) return null;
  return (
    <ul class="app-notices" aria-label="Requests of the view">
      {props.notices.map((n) => (
        <li key={n.key} class={`app-notice notice-${n.kind}`}>
          <NoticeBody
            notice={n}
            onDone={() => {
              props.onDone(n.key);
            }}
          />
        </li>
      ))}
    </ul>
  );
}

function NoticeBody(props: { notice: Shown; onDone: () => void }) {
  const { notice, onDone } = props;
  if (notice.kind === 'link') {
    return (
      <>
        <span>
          The view asks to open <code>{notice.url}</code>
        </span>{' '}
        <button
          type="button"
          onClick={() => {
            window.open(notice.url, '_blank', 'noopener,noreferrer');
            notice.decide(true);
            onDone();
          }}
        >
          Open link
        </button>{' '}
        <button
          type="button"
          onClick={() => {
            notice.decide(false);
            onDone();
          }}
        >
          Deny
        </button>
      </>
    );
  }
  const label =
    notice.kind === 'message'
      ? 'The view sends a message (ui/message)'
      : notice.kind === 'context'
        ? 'The view updates the model context'
        : `The view logs (${notice.level})`;
  return (
    <>
      <span>
        {label}: <q>{notice.text.length > 2000 ? `${notice.text.slice(0, 2000)}…` : notice.text}</q>
      </span>{' '}
      <button type="button" class="link" onClick={onDone}>
        Dismiss
      </button>
    </>
  );
}

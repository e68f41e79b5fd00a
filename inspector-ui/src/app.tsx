// The page of `mcpkit inspect`: the header, the Connect form, the tabs, the questions the server
// asks (elicitation and sampling dialogs), and the event stream that keeps all of it current.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { Alerts, ReportContext, type Alert } from './alerts';
import { ApiError, api, errorText, setToken, streamEvents, takeToken } from './api';
import { ConnectForm } from './connect-form';
import { ElicitDialog, type ElicitAnswer } from './elicit-dialog';
import { Header } from './header';
import { LogsTab, type LogEntry } from './logs-tab';
import { PromptsTab } from './prompts-tab';
import { ResourcesTab, type ResourceUpdate } from './resources-tab';
import { RootsTab } from './roots-tab';
import { SampleDialog } from './sample-dialog';
import { ServerTab } from './server-tab';
import { TabList, TabPanel, type TabName } from './tabs';
import { TasksTab } from './tasks-tab';
import { ToolsTab } from './tools-tab';
import type {
  JsonObject,
  ProgressEvent,
  Question,
  ServerEvent,
  State,
  Task,
  WireEntry,
} from './types';
import { WireTab } from './wire-tab';

/** The most wire entries and log messages the page keeps. */
const KEEP_WIRE = 5000;
const KEEP_LOGS = 2000;

export function App() {
  const [state, setState] = useState<State | undefined>();
  const [tab, setTab] = useState<TabName>('Tools');
  const [wire, setWire] = useState<WireEntry[]>([]);
  const [logs, setLogs] = useState<LogEntry[]>([]);
  const [progress, setProgress] = useState<Record<string, ProgressEvent>>({});
  const [updates, setUpdates] = useState<ResourceUpdate[]>([]);
  const [questions, setQuestions] = useState<Question[]>([]);
  const [tasks, setTasks] = useState<Record<string, Task>>({});
  const [alerts, setAlerts] = useState<Alert[]>([]);
  const [answering, setAnswering] = useState(false);
  const lastSeq = useRef(-1);
  const lastStamp = useRef(-1);
  const nextAlert = useRef(0);

  // Snapshots come over several connections (the event stream, the answers of GET /api/state and
  // of POSTs) and may arrive out of order: one taken before a change may arrive after the event
  // of it. The newest wins; every change is followed by an event, so the page ends current.
  const showState = useCallback((next: State) => {
    if (next.stamp < lastStamp.current) return;
    lastStamp.current = next.stamp;
    setState(next);
  }, []);

  const report = useCallback((message: string) => {
    const id = ++nextAlert.current;
    setAlerts((old) => [...old.filter((a) => a.message !== message), { id, message }].slice(-5));
  }, []);
  const dismiss = (id: number) => {
    setAlerts((old) => old.filter((a) => a.id !== id));
  };
  const mergeTasks = (list: Task[]) => {
    setTasks((old) => {
      const next = { ...old };
      for (const task of list) next[task.taskId] = { ...old[task.taskId], ...task };
      return next;
    });
  };

  const onEvent = useCallback((event: ServerEvent) => {
    switch (event.type) {
      case 'state':
        showState(event.data); // made once (no dependencies), as onEvent is
        return;
      case 'wire': {
        const entry = event.data;
        if (entry.seq <= lastSeq.current) return; // replayed after a reconnect: already here
        lastSeq.current = entry.seq;
        setWire((old) =>
          old.length >= KEEP_WIRE ? [...old.slice(-KEEP_WIRE + 1), entry] : [...old, entry],
        );
        return;
      }
      case 'progress':
        setProgress((old) => ({ ...old, [event.data.opId]: event.data }));
        return;
      case 'log': {
        const entry = { ...event.data, time: Date.now() };
        setLogs((old) => [...old.slice(-KEEP_LOGS + 1), entry]);
        return;
      }
      case 'list_changed':
        return; // a state event follows with the new lists
      case 'resource_updated':
        setUpdates((old) => [...old.slice(-199), event.data]);
        return;
      case 'elicit':
      case 'sample': {
        const question: Question = { kind: event.type, ...event.data };
        setQuestions((old) =>
          old.some((q) => q.requestId === question.requestId) ? old : [...old, question],
        );
        return;
      }
      case 'answered':
        setQuestions((old) => old.filter((q) => q.requestId !== event.data.requestId));
        return;
      case 'task':
        mergeTasks([event.data.task]);
        return;
    }
  }, []);

  useEffect(() => {
    const token = takeToken();
    setToken(token);
    if (token === undefined) {
      report(
        'No access token: open the address that mcpkit inspect printed (it ends with ?token=…).',
      );
      return undefined;
    }
    const controller = new AbortController();
    let down = false;
    void streamEvents(
      onEvent,
      (up, error) => {
        if (up) {
          // The stream starts with the state: a backend started again counts its stamps anew.
          lastStamp.current = -1;
          if (down) report('The inspector backend is back.');
          down = false;
          return;
        }
        down = true;
        report(
          error?.status === 401
            ? error.message
            : `Lost the event stream of the inspector backend (${error?.message ?? 'closed'}); retrying…`,
        );
      },
      controller.signal,
    );
    api.state().then(showState, (error: unknown) => {
      if (!(error instanceof ApiError && error.status === 401)) report(errorText(error));
    });
    return () => {
      controller.abort();
    };
  }, [onEvent, report, showState]);

  const question = questions[0];
  const answer = async (q: Question, body: { result: JsonObject } | { error: string }) => {
    setAnswering(true);
    try {
      await api.answer(q.requestId, body);
      setQuestions((old) => old.filter((x) => x.requestId !== q.requestId));
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        setQuestions((old) => old.filter((x) => x.requestId !== q.requestId));
        report('The server no longer waits for that answer (it was cancelled or timed out).');
      } else {
        report(`Answering the server failed: ${errorText(error)}`);
      }
    } finally {
      setAnswering(false);
    }
  };

  const view = state ?? EMPTY;
  const counts = {
    Tools: view.tools.length,
    Resources: view.resources.length + view.resourceTemplates.length,
    Prompts: view.prompts.length,
    Tasks: Object.keys(tasks).length,
    Logs: logs.length,
  };
  return (
    <ReportContext.Provider value={report}>
      <div class="app">
        <Header state={state} />
        <Alerts alerts={alerts} onDismiss={dismiss} />
        <div class="body">
          <aside class="side">
            <ConnectForm state={state} onState={showState} />
          </aside>
          <main class="main">
            <TabList current={tab} onSelect={setTab} counts={counts} />
            <TabPanel tab="Tools" current={tab}>
              <ToolsTab
                state={view}
                progress={progress}
                onShowTasks={() => {
                  setTab('Tasks');
                }}
              />
            </TabPanel>
            <TabPanel tab="Resources" current={tab}>
              <ResourcesTab state={view} updates={updates} />
            </TabPanel>
            <TabPanel tab="Prompts" current={tab}>
              <PromptsTab state={view} />
            </TabPanel>
            <TabPanel tab="Tasks" current={tab}>
              <TasksTab state={view} tasks={tasks} onTasks={mergeTasks} />
            </TabPanel>
            <TabPanel tab="Logs" current={tab}>
              <LogsTab
                state={view}
                logs={logs}
                onClear={() => {
                  setLogs([]);
                }}
              />
            </TabPanel>
            <TabPanel tab="Wire" current={tab}>
              <WireTab
                wire={wire}
                onClear={() => {
                  setWire([]);
                }}
              />
            </TabPanel>
            <TabPanel tab="Roots" current={tab}>
              <RootsTab state={view} onState={showState} />
            </TabPanel>
            <TabPanel tab="Server" current={tab}>
              <ServerTab state={view} />
            </TabPanel>
          </main>
        </div>
        {question?.kind === 'elicit' ? (
          <ElicitDialog
            key={question.requestId}
            question={question}
            busy={answering}
            onAnswer={(a: ElicitAnswer) => void answer(question, { result: a })}
          />
        ) : null}
        {question?.kind === 'sample' ? (
          <SampleDialog
            key={question.requestId}
            question={question}
            busy={answering}
            onReply={(result) => void answer(question, { result })}
            onReject={() =>
              void answer(question, { error: 'the user rejected the sampling request' })
            }
          />
        ) : null}
      </div>
    </ReportContext.Provider>
  );
}

/** What the tabs show before the first state arrives. */
const EMPTY: State = {
  stamp: -1,
  connected: false,
  connecting: false,
  allowStdio: false,
  mode: 'auto',
  tools: [],
  resources: [],
  resourceTemplates: [],
  prompts: [],
  roots: [],
};

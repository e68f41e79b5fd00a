// The navigation: a tablist (arrow keys move between tabs) and a panel per tab. Hidden panels
// stay mounted, so a form keeps what was typed in it.
import type { ComponentChildren } from 'preact';

export const TABS = [
  'Tools',
  'Resources',
  'Prompts',
  'Tasks',
  'Logs',
  'Wire',
  'Roots',
  'Server',
] as const;

export type TabName = (typeof TABS)[number];

export function TabList(props: {
  current: TabName;
  onSelect: (tab: TabName) => void;
  counts: Partial<Record<TabName, number>>;
}) {
  const { current, onSelect } = props;
  const move = (from: number, by: number) => {
    const next = TABS[(from + by + TABS.length) % TABS.length] ?? 'Tools';
    onSelect(next);
    document.getElementById(`tab-${next}`)?.focus();
  };
  return (
    <div role="tablist" aria-label="Inspector" class="tablist">
      {TABS.map((tab, i) => {
        const count = props.counts[tab];
        return (
          <button
            key={tab}
            type="button"
            role="tab"
            id={`tab-${tab}`}
            aria-selected={tab === current}
            aria-controls={`panel-${tab}`}
            tabIndex={tab === current ? 0 : -1}
            onClick={() => {
              onSelect(tab);
            }}
            onKeyDown={(event) => {
              if (event.key === 'ArrowRight') move(i, 1);
              else if (event.key === 'ArrowLeft') move(i, -1);
              else if (event.key === 'Home') move(0, 0);
              else if (event.key === 'End') move(TABS.length - 1, 0);
            }}
          >
            {tab}
            {count === undefined || count === 0 ? null : (
              <span class="count" aria-hidden="true">
                {count}
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}

export function TabPanel(props: { tab: TabName; current: TabName; children: ComponentChildren }) {
  return (
    <section
      role="tabpanel"
      id={`panel-${props.tab}`}
      aria-labelledby={`tab-${props.tab}`}
      hidden={props.tab !== props.current}
      class="panel"
    >
      {props.children}
    </section>
  );
}

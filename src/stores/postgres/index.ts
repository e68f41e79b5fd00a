// mcpkit/stores/postgres: what several mcpkit processes share through PostgreSQL (`pg`, an
// optional peer): the task store (tasks outlive their process; any process serves tasks/get,
// signals travel by LISTEN/NOTIFY). `mcpkit/tasks/postgres` is this same entry
// (docs/migration.md). See docs/tasks.md.
export type {
  PgClientLike,
  PgPoolLike,
  PostgresTaskStore,
  PostgresTaskStoreOptions,
} from './tasks.js';
export { createPostgresTaskStore } from './tasks.js';

// The shop dataset the embedded database starts with: customers, products, orders and order
// lines, generated from a fixed seed so every run (PGlite or a PostgreSQL test schema) holds
// exactly the same rows. Plain SQL, PostgreSQL dialect; no MCP here.

/** Rows per table, for tests and docs. */
export const SHOP_SIZES = { customers: 80, products: 40, orders: 250 } as const;

/** A small deterministic PRNG (mulberry32): the same seed gives the same sequence. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = [
  'Ada',
  'Alan',
  'Barbara',
  'Claude',
  'Donald',
  'Edsger',
  'Frances',
  'Grace',
  'Hedy',
  'Ivan',
  'Joan',
  'Ken',
  'Linus',
  'Margaret',
  'Niklaus',
  'Radia',
];
const LAST = [
  'Lovelace',
  'Turing',
  'Liskov',
  'Shannon',
  'Knuth',
  'Dijkstra',
  'Allen',
  'Hopper',
  'Lamarr',
  'Sutherland',
  'Clarke',
  'Thompson',
  'Torvalds',
  'Hamilton',
  'Wirth',
  'Perlman',
];
const COUNTRIES = ['DE', 'FR', 'GB', 'IN', 'JP', 'NL', 'US', 'US', 'US', 'BR'];
const CATALOG: Readonly<Record<string, readonly string[]>> = {
  Books: [
    'Compilers',
    'Algorithms',
    'Type Theory',
    'Networks',
    'Databases',
    'Operating Systems',
    'Cryptography',
    'Graphics',
  ],
  Electronics: [
    'USB Cable',
    'Keyboard',
    'Mouse',
    'Monitor',
    'Headphones',
    'Webcam',
    'Charger',
    'SSD',
  ],
  Garden: ['Hose', 'Rake', 'Shovel', 'Gloves', 'Seeds', 'Planter', 'Pruner', 'Watering Can'],
  Kitchen: ['Kettle', 'Teapot', 'Knife', 'Pan', 'Grinder', 'Scale', 'Whisk', 'Mug'],
  Toys: ['Puzzle', 'Kite', 'Yo-yo', 'Robot Kit', 'Blocks', 'Marbles', 'Spinning Top', 'Chess Set'],
};
const STATUSES = [
  'pending',
  'shipped',
  'shipped',
  'delivered',
  'delivered',
  'delivered',
  'cancelled',
];
const NOTES = [
  'Gift wrap, please.',
  'Leave at the door.',
  "Call before delivery; it's urgent.",
  'Second attempt.',
];

/** Quotes a string as an SQL literal. */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

const SCHEMA_SQL = `
CREATE TABLE customers (
  id integer PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL UNIQUE,
  country char(2) NOT NULL,
  created_at date NOT NULL
);
COMMENT ON TABLE customers IS 'People who have an account in the shop.';
CREATE TABLE products (
  id integer PRIMARY KEY,
  name text NOT NULL UNIQUE,
  category text NOT NULL,
  price numeric(10, 2) NOT NULL CHECK (price >= 0),
  in_stock boolean NOT NULL DEFAULT true
);
COMMENT ON TABLE products IS 'What the shop sells, with current prices.';
CREATE TABLE orders (
  id integer PRIMARY KEY,
  customer_id integer NOT NULL REFERENCES customers (id),
  status text NOT NULL CHECK (status IN ('pending', 'shipped', 'delivered', 'cancelled')),
  ordered_at timestamp NOT NULL,
  note text
);
COMMENT ON TABLE orders IS 'One row per order; lines are in order_lines.';
CREATE INDEX orders_customer_id ON orders (customer_id);
CREATE TABLE order_lines (
  order_id integer NOT NULL REFERENCES orders (id),
  line_no integer NOT NULL,
  product_id integer NOT NULL REFERENCES products (id),
  quantity integer NOT NULL CHECK (quantity > 0),
  unit_price numeric(10, 2) NOT NULL,
  PRIMARY KEY (order_id, line_no)
);
COMMENT ON TABLE order_lines IS 'The products of each order, at the price paid.';
CREATE INDEX order_lines_product_id ON order_lines (product_id);
CREATE VIEW order_totals AS
  SELECT o.id AS order_id, o.customer_id, o.status, sum(l.quantity * l.unit_price) AS total
  FROM orders o JOIN order_lines l ON l.order_id = o.id
  GROUP BY o.id;
COMMENT ON VIEW order_totals IS 'The total of each order.';
`;

// The same tables in MySQL/MariaDB's dialect (the MySQL tests' dataset): indexed text is
// varchar, comments are table options, and a view cannot have one.
const MYSQL_SCHEMA_SQL: readonly string[] = [
  `CREATE TABLE customers (
  id integer PRIMARY KEY,
  name text NOT NULL,
  email varchar(255) NOT NULL UNIQUE,
  country char(2) NOT NULL,
  created_at date NOT NULL
) COMMENT 'People who have an account in the shop.'`,
  `CREATE TABLE products (
  id integer PRIMARY KEY,
  name varchar(255) NOT NULL UNIQUE,
  category text NOT NULL,
  price numeric(10, 2) NOT NULL CHECK (price >= 0),
  in_stock boolean NOT NULL DEFAULT true
) COMMENT 'What the shop sells, with current prices.'`,
  `CREATE TABLE orders (
  id integer PRIMARY KEY,
  customer_id integer NOT NULL,
  status varchar(16) NOT NULL CHECK (status IN ('pending', 'shipped', 'delivered', 'cancelled')),
  ordered_at datetime NOT NULL,
  note text,
  CONSTRAINT orders_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES customers (id)
) COMMENT 'One row per order; lines are in order_lines.'`,
  `CREATE TABLE order_lines (
  order_id integer NOT NULL,
  line_no integer NOT NULL,
  product_id integer NOT NULL,
  quantity integer NOT NULL CHECK (quantity > 0),
  unit_price numeric(10, 2) NOT NULL,
  PRIMARY KEY (order_id, line_no),
  CONSTRAINT order_lines_order_id_fkey FOREIGN KEY (order_id) REFERENCES orders (id),
  CONSTRAINT order_lines_product_id_fkey FOREIGN KEY (product_id) REFERENCES products (id)
) COMMENT 'The products of each order, at the price paid.'`,
  `CREATE VIEW order_totals AS
  SELECT o.id AS order_id, o.customer_id, o.status, sum(l.quantity * l.unit_price) AS total
  FROM orders o JOIN order_lines l ON l.order_id = o.id
  GROUP BY o.id, o.customer_id, o.status`,
];

/** The shop in MySQL/MariaDB's dialect, one statement per entry, for the current database. */
export function mysqlShopStatements(seed = 20_260_728): string[] {
  const [, ...inserts] = shopStatements(seed);
  return [...MYSQL_SCHEMA_SQL, ...inserts.map((statement) => statement.replace(/;$/, ''))];
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function insert(table: string, rows: readonly string[]): string[] {
  const statements: string[] = [];
  for (let i = 0; i < rows.length; i += 100) {
    statements.push(`INSERT INTO ${table} VALUES\n  ${rows.slice(i, i + 100).join(',\n  ')};`);
  }
  return statements;
}

function pick<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/** The statements that create and fill the shop schema, in order (the current search_path). */
export function shopStatements(seed = 20_260_728): string[] {
  const random = createRandom(seed);
  const customers: string[] = [];
  for (let id = 1; id <= SHOP_SIZES.customers; id++) {
    const first = pick(FIRST, random);
    const last = pick(LAST, random);
    const email = `${first}.${last}${String(id)}@example.com`.toLowerCase();
    const day = new Date(Date.UTC(2023, 0, 1) + Math.floor(random() * 730) * 86_400_000);
    const created = day.toISOString().slice(0, 10);
    const values = [String(id), sqlString(`${first} ${last}`), sqlString(email)];
    values.push(sqlString(pick(COUNTRIES, random)), sqlString(created));
    customers.push(`(${values.join(', ')})`);
  }
  const products: string[] = [];
  const prices: number[] = [];
  let productId = 0;
  for (const [category, names] of Object.entries(CATALOG)) {
    for (const name of names) {
      productId++;
      const cents = 250 + Math.floor(random() * 24_750);
      prices[productId] = cents;
      const inStock = random() < 0.85 ? 'true' : 'false';
      const values = [String(productId), sqlString(name), sqlString(category)];
      values.push((cents / 100).toFixed(2), inStock);
      products.push(`(${values.join(', ')})`);
    }
  }
  const orders: string[] = [];
  const lines: string[] = [];
  for (let id = 1; id <= SHOP_SIZES.orders; id++) {
    const customer = 1 + Math.floor(random() * SHOP_SIZES.customers);
    const at = new Date(Date.UTC(2024, 0, 1) + Math.floor(random() * 525_600) * 60_000);
    const stamp = `${at.toISOString().slice(0, 10)} ${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:00`;
    const note = random() < 0.2 ? sqlString(pick(NOTES, random)) : 'NULL';
    const status = sqlString(pick(STATUSES, random));
    orders.push(`(${[String(id), String(customer), status, sqlString(stamp), note].join(', ')})`);
    const count = 1 + Math.floor(random() * 4);
    const used = new Set<number>();
    for (let line = 1; line <= count; line++) {
      let product = 1 + Math.floor(random() * productId);
      while (used.has(product)) product = (product % productId) + 1;
      used.add(product);
      const quantity = 1 + Math.floor(random() * 5);
      const price = ((prices[product] ?? 0) / 100).toFixed(2);
      lines.push(`(${[id, line, product, quantity].map(String).join(', ')}, ${price})`);
    }
  }
  return [
    SCHEMA_SQL.trim(),
    ...insert('customers', customers),
    ...insert('products', products),
    ...insert('orders', orders),
    ...insert('order_lines', lines),
  ];
}

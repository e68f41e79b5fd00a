/** The whole page. */
export function App() {
  return <main>mcpkit inspect</main>;
}

// Placeholder (issue 20): replaced by the page itself.
export function EnvironmentsPage(_props: object) {
  void [_props]
  return <div class="page"><h1>EnvironmentsPage</h1><p>Not built yet.</p></div>
}

// Placeholder (issue 20): replaced by the page itself.
export function ProjectsPage(_props: object) {
  void [_props]
  return <div class="page"><h1>ProjectsPage</h1><p>Not built yet.</p></div>
}

// Placeholder (issue 20): replaced by the page itself.
export function FlagPage({ project, name }: { project: string; name: string }) {
  void [project, name ]
  return <div class="page"><h1>FlagPage</h1><p>Not built yet.</p></div>
}

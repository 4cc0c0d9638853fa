// Placeholder (issue 20): replaced by the page itself.
export function NewFlagPage({ project }: { project?: string | undefined }) {
  void [project ]
  return <div class="page"><h1>NewFlagPage</h1><p>Not built yet.</p></div>
}

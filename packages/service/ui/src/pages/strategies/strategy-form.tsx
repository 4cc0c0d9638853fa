// Placeholder (issue 20): replaced by the page itself.
export function StrategyFormPage({ project, name, environment, id }: { project: string; name: string; environment: string; id?: string | undefined }) {
  void [project, name, environment, id ]
  return <div class="page"><h1>StrategyFormPage</h1><p>Not built yet.</p></div>
}

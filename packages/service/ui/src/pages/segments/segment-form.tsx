// Placeholder (issue 20): replaced by the page itself.
export function SegmentFormPage({ id }: { id?: number | undefined }) {
  void [id ]
  return <div class="page"><h1>SegmentFormPage</h1><p>Not built yet.</p></div>
}

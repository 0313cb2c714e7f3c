import { CREATIVE_KIND_LABELS, type Creative, formatBytes } from '@shared/contracts/creatives';
import { Download, File, FileImage, FileText, FileVideo, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { formatDate } from '@/lib/format';
import { useDeleteCreative } from '../api/delete-creative';
import { useDownloadCreative } from '../api/download-creative';

const ICONS = { image: FileImage, video: FileVideo, pdf: FileText, doc: FileText, docx: FileText } as const;

/** A list of creatives: name, type, size, when and by whom; download, and delete where the caller may. */
export function CreativeItems({ creatives, label }: { creatives: Creative[]; label: string }) {
  const download = useDownloadCreative();
  const remove = useDeleteCreative();
  const [deleting, setDeleting] = useState<Creative | null>(null);
  return (
    <>
      <ul aria-label={label} className="divide-y rounded-lg border">
        {creatives.map((creative) => {
          const Icon = ICONS[creative.kind] ?? File;
          return (
            <li key={creative.id} className="flex flex-wrap items-center gap-3 px-4 py-3" data-testid="creative">
              <Icon className="size-8 shrink-0 text-indigo-500" aria-hidden />
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium text-slate-900" title={creative.originalName}>
                  {creative.originalName}
                </p>
                <p className="text-xs text-muted-foreground">
                  {CREATIVE_KIND_LABELS[creative.kind]} · {formatBytes(creative.size)} ·{' '}
                  {formatDate(creative.uploadedAt)}
                  {creative.uploadedByName ? ` · ${creative.uploadedByName}` : ''}
                </p>
              </div>
              <div className="flex gap-2">
                <Button
                  variant="outline"
                  size="sm"
                  disabled={download.isPending && download.variables?.id === creative.id}
                  onClick={() => download.mutate(creative)}
                >
                  <Download aria-hidden /> Download<span className="sr-only"> {creative.originalName}</span>
                </Button>
                {creative.canDelete && (
                  <Button
                    variant="outline"
                    size="sm"
                    className="text-destructive hover:bg-red-50 hover:text-destructive"
                    onClick={() => setDeleting(creative)}
                  >
                    <Trash2 aria-hidden /> Delete<span className="sr-only"> {creative.originalName}</span>
                  </Button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete creative?"
        description={deleting ? `${deleting.originalName} will be removed for everyone. This cannot be undone.` : ''}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting, { onSettled: () => setDeleting(null) })}
      />
    </>
  );
}

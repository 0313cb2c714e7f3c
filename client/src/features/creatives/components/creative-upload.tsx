import {
  CREATIVE_ACCEPT,
  CREATIVE_MESSAGES,
  CREATIVE_UPLOAD_HINT,
  creativeUploadRefusal,
  formatBytes,
  MAX_CREATIVE_BYTES,
} from '@shared/contracts/creatives';
import { Upload } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api-client';
import { useUploadCreative } from '../api/upload-creative';

export type UploadTarget = { id: string; name: string; status: string };

/**
 * The creative upload chooser: which contract, which file (the hint names the accepted kinds and size),
 * then a progress bar while the file travels. The server decides the type from the content; the chooser's
 * filter and the size check here only spare the client a wasted upload.
 */
export function CreativeUpload({ contracts }: { contracts: UploadTarget[] }) {
  const open = contracts.filter((c) => c.status !== 'draft' && !creativeUploadRefusal(c.status));
  const [contractId, setContractId] = useState<string>('');
  const [file, setFile] = useState<File | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const upload = useUploadCreative();
  const hintId = useId();
  const chosenContract = open.length === 1 ? open[0].id : contractId;

  const choose = (next: File | null) => {
    setFile(next);
    setProblem(
      next && next.size > MAX_CREATIVE_BYTES
        ? CREATIVE_MESSAGES.tooLarge
        : next && next.size === 0
          ? CREATIVE_MESSAGES.empty
          : null,
    );
  };

  const start = () => {
    if (!chosenContract) return setProblem(CREATIVE_MESSAGES.contractRequired);
    if (!file) return setProblem(CREATIVE_MESSAGES.noFile);
    if (problem) return;
    setProgress(0);
    upload.mutate(
      { contractId: chosenContract, file, onProgress: setProgress },
      {
        onSuccess: (creative) => {
          toast({ title: 'Creative uploaded', description: creative.originalName });
          setFile(null);
          setInputKey((k) => k + 1);
          setProgress(null);
        },
        onError: (error) => {
          const message = errorMessage(error, 'The upload failed. Please try again.');
          setProblem(message);
          setProgress(null);
          toast({ variant: 'destructive', title: 'Upload failed', description: message });
        },
      },
    );
  };

  const busy = upload.isPending;
  const percent = progress === null ? null : Math.round(progress * 100);

  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>Upload Creatives</CardTitle>
        <CardDescription id={hintId}>{CREATIVE_UPLOAD_HINT}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {open.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            Creatives can be uploaded once you have a sent or active contract.
          </p>
        ) : (
          <>
            {open.length > 1 && (
              <FormField label="Contract">
                <Select value={contractId} onValueChange={setContractId} disabled={busy}>
                  <SelectTrigger aria-label="Contract">
                    <SelectValue placeholder="Choose the contract" />
                  </SelectTrigger>
                  <SelectContent>
                    {open.map((c) => (
                      <SelectItem key={c.id} value={c.id}>
                        {c.name}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              </FormField>
            )}
            {open.length === 1 && (
              <p className="text-sm">
                <span className="text-muted-foreground">For </span>
                <span className="font-medium text-slate-900">{open[0].name}</span>
              </p>
            )}
            <FormField label="Creative file">
              <input
                key={inputKey}
                type="file"
                accept={CREATIVE_ACCEPT}
                disabled={busy}
                aria-describedby={hintId}
                onChange={(event) => choose(event.target.files?.[0] ?? null)}
                className="block w-full cursor-pointer rounded-md border border-dashed border-input bg-muted/30 p-3 text-sm text-slate-700 file:mr-3 file:cursor-pointer file:rounded-md file:border-0 file:bg-primary file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-primary-foreground hover:bg-muted/60 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-60"
              />
            </FormField>
            {file && !problem && (
              <p className="text-sm text-muted-foreground">
                {file.name} · {formatBytes(file.size)}
              </p>
            )}
            {percent !== null && (
              <div className="grid gap-1.5">
                <div
                  role="progressbar"
                  aria-label="Upload progress"
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={percent}
                  className="h-2 overflow-hidden rounded-full bg-slate-200"
                >
                  <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
                </div>
                <p className="text-xs text-muted-foreground" aria-live="polite">
                  {percent < 100 ? `Uploading... ${percent}%` : 'Checking the file...'}
                </p>
              </div>
            )}
            {problem && (
              <p role="alert" className="text-sm font-medium text-destructive">
                {problem}
              </p>
            )}
            <div>
              <Button onClick={start} disabled={busy || !file || Boolean(problem && file)}>
                <Upload aria-hidden /> {busy ? 'Uploading...' : 'Upload'}
              </Button>
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}

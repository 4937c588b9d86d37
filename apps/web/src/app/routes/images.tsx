import { useParams, useSearchParams } from 'react-router';
import { ImageEditor, ImageGeneration } from '../../features/images';

/** Where the image pages send a person refused for credits, and where own keys are added. */
const PATHS = { plans: '/subscription', apiKeys: '/setting/api-keys' } as const;

/** /image-generation */
export function ImageGenerationPage() {
  return <ImageGeneration plansPath={PATHS.plans} apiKeysPath={PATHS.apiKeys} />;
}

/**
 * /image-editor, /image-editor/{id} and /image-editor?image={id}. The extension's "Edit with Parley" opens the second,
 * or /image-editor?problem={why} when it could not bring the image.
 */
export function ImageEditorPage() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const imageId = id ?? params.get('image') ?? undefined;
  // A new image is a new editor: its versions, pointer and fields start afresh.
  return (
    <ImageEditor
      key={imageId ?? 'none'}
      imageId={imageId}
      problem={params.get('problem')}
      plansPath={PATHS.plans}
      apiKeysPath={PATHS.apiKeys}
    />
  );
}

# The hosted service's SDK reading a project folder offline, unchanged: Project(id_=None, project_folder=...).
# Prints one JSON line: per document what the SDK's data layer sees of it (its record, text, boxes and
# annotations with their spans), keyed by the folder's document id, so that two folders can be compared.
# Run by test/services/projectFolders.test.ts with Debian's python3 (see test/http/sdkDataLayer.test.ts).
import hashlib
import json
import math
import sys

from konfuzio_sdk.data import Project

def point(v):
    """To four decimals of a point, rounded as Folio stores boxes (JavaScript's Math.round: half up)."""
    return math.floor(v * 10000 + 0.5) / 10000


project = Project(id_=None, project_folder=sys.argv[1])
out = {
    'categories': sorted(c.name for c in project.categories),
    'labels': sorted((label.name, label.data_type) for label in project.labels),
    'label_sets': sorted((s.name, s.has_multiple_annotation_sets) for s in project.label_sets),
    'training': len(project.documents),
    'test': len(project.test_documents),
    'documents': {},
}
for doc in project._documents:
    bbox = doc.get_bbox()
    annotations = []
    for a in doc.annotations(use_correct=False):
        annotations.append([a.label.name, a.label_set.name, a.is_correct, a.revised,
                            [[s.start_offset, s.end_offset] for s in a.spans], a.offset_string])
    out['documents'][str(doc.id_)] = {
        'name': doc.name,
        'category': doc.category.name if doc.category else None,
        'dataset_status': doc.dataset_status,
        'pages': len(doc.pages()) if doc.text is not None else None,
        'text': hashlib.sha256((doc.text or '').replace('\f', '').encode('utf-8')).hexdigest(),
        'boxes': sorted([int(k), b['text'], point(min(b['x0'], b['x1'])), point(max(b['x0'], b['x1'])), point(min(b['y0'], b['y1'])), point(max(b['y0'], b['y1'])), b.get('page_number')] for k, b in bbox.items()),
        'annotations': sorted(annotations, key=lambda a: (a[4], a[0])),
        'annotation_sets': len(doc.annotation_sets() or []),
    }
print(json.dumps(out))

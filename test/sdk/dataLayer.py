"""Drives the hosted service's Python SDK data layer (konfuzio_sdk.data), unchanged, against a running Folio.

Run by test/http/sdkDataLayer.test.ts with Debian's python3, the SDK and test/sdk/standins on PYTHONPATH,
KONFUZIO_HOST / KONFUZIO_TOKEN naming the server, and FOLIO_* naming what the test made through the API.
Each step follows a flow of the SDK's tutorials (docs/sdk/tutorials) or of its own server tests
(tests/test_data.py: TestOnlineProject), asserts what those assert, and prints one JSON line:
{"step": name, "ok": true|false, "error": "...", "got": {...}}. Steps share one Project and its documents,
in order, as a script would; a failed step does not stop the later ones.
"""
import json
import os
import sys
import time
import traceback
from copy import deepcopy

import requests
from PIL.PngImagePlugin import PngImageFile
from requests import HTTPError

from konfuzio_sdk.api import get_meta_of_files
from konfuzio_sdk.data import Annotation, AnnotationSet, Bbox, Document, Project, Span
from konfuzio_sdk.tokenizer.regex import WhitespaceTokenizer
from konfuzio_sdk.utils import get_spans_from_bbox

PROJECT_ID = int(os.environ['FOLIO_PROJECT'])
CATEGORY_ID = int(os.environ['FOLIO_CATEGORY'])
USER_ID = int(os.environ['FOLIO_USER_ID'])
TWO_LINES_PDF = os.environ['FOLIO_TWO_LINES_PDF']
SDK_TEST_DATA = os.path.join(os.environ['FOLIO_SDK_DIR'], 'tests', 'test_data')
# The two lines of TWO_LINES_PDF (drawn by the test): a multi-line annotation takes a word of each.
LINE_1 = os.environ['FOLIO_LINE_1']
LINE_2 = os.environ['FOLIO_LINE_2']

state = {}
STEPS = []
refusals = []


_build_response = requests.adapters.HTTPAdapter.build_response


def build_response_noting_refusals(self, req, resp):
    """Keeps the server's refusals, so that a step can name what the server said (the SDK logs only codes).
    Wraps the base adapter's build_response, which runs before the SDK's adapter raises HTTPError."""
    response = _build_response(self, req, resp)
    if response.status_code >= 400:
        refusals.append(f'{req.method} {response.url} -> {response.status_code} {response.text[:400]}')
    return response


requests.adapters.HTTPAdapter.build_response = build_response_noting_refusals


def step(fn):
    STEPS.append(fn)
    return fn


def offsets(doc, word, after=0):
    start = doc.text.index(word, after)
    return start, start + len(word)


def refreshed_document(doc_id):
    """The document as a script sees it after refreshing the project from the server."""
    state['project'].init_or_update_document(from_online=True)
    return state['project'].get_document_by_id(doc_id)


@step
def project_init():
    project = Project(id_=PROJECT_ID, update=True)
    state['project'] = project
    category = project.get_category_by_id(CATEGORY_ID)
    assert category.name == 'Lohnabrechnung', category.name
    names = [ls.name for ls in category.label_sets if ls.id_]  # the SDK adds its NO_LABEL_SET (id 0)
    assert sorted(names) == ['Brutto-Bezug', 'Lohnabrechnung'], names
    assert category.default_label_set.is_default
    return {'labels': sorted(label.name for label in project.labels if label.id_), 'label_sets': [ls.name for ls in project.label_sets]}


@step
def label_data_types_and_descriptions():
    project = state['project']
    got = {label.name: [label.data_type, label.description] for label in project.labels if label.id_}
    assert got['Austellungsdatum'][0] == 'Date', got
    assert got['Betrag'] == ['Positive Number', 'Gross amount'], got
    assert got['Vorname'][0] == 'Text', got
    return got


@step
def label_set_repeats():
    brutto = state['project'].get_label_set_by_name('Brutto-Bezug')
    assert brutto.has_multiple_annotation_sets is True
    assert sorted(label.name for label in brutto.labels) == ['Bezeichnung', 'Lohnart']
    assert state['project'].get_label_set_by_id(CATEGORY_ID).has_multiple_annotation_sets is False
    return {'labels': sorted(label.name for label in brutto.labels)}


@step
def from_file_sync():
    project = state['project']
    doc = Document.from_file(TWO_LINES_PDF, project=project, category_id=CATEGORY_ID, sync=True)
    state['doc'] = doc
    assert doc.id_ and doc.status == 2, doc.status
    assert doc.name == os.path.basename(TWO_LINES_PDF)
    assert doc.category.id_ == CATEGORY_ID
    assert LINE_1 in doc.text and LINE_2 in doc.text, doc.text
    return {'id': doc.id_, 'text': doc.text}


@step
def from_file_async():
    project = state['project']
    doc = Document.from_file(os.path.join(SDK_TEST_DATA, 'pdf.pdf'), project=project, sync=False)
    assert doc.status == [0], doc.status
    state['async_id'] = doc.id_
    return {'id': doc.id_}


@step
def async_document_done_after_refresh():
    # The tutorial's way without a callback: refresh the project until the document is done.
    deadline = time.time() + 60
    while True:
        doc = refreshed_document(state['async_id'])
        if doc.status == 2 or time.time() > deadline:
            break
        time.sleep(0.5)
    assert doc.status == 2, doc.status
    assert doc.name == 'pdf.pdf'
    assert len(doc.text) > 0
    return {'status': doc.status, 'chars': len(doc.text)}


@step
def project_get_update():
    project = state['project'].get(update=True)
    ids = sorted(doc.id_ for doc in project._documents)
    assert state['doc'].id_ in ids and state['async_id'] in ids, ids
    doc = project.get_document_by_id(state['doc'].id_)
    assert doc.status == 2, doc.status
    state['doc'] = doc
    return {'documents': len(ids), 'status': doc.status}


@step
def document_list_keys():
    # tests/test_api.py::test_documents_list reads the list item's keys; the data layer passes them as keywords.
    item = [d for d in get_meta_of_files(project_id=PROJECT_ID) if d['id'] == state['doc'].id_][0]
    assert 'status' not in item, item['status']
    for key in ('id', 'project', 'status_data', 'data_file_name', 'dataset_status', 'category', 'assignee', 'updated_at', 'file_url'):
        assert key in item, key
    return {'keys': sorted(item)}


@step
def second_project_instance_reads_the_same():
    again = Project(id_=PROJECT_ID)
    doc = again.get_document_by_id(state['doc'].id_)
    assert doc.text == state['doc'].text
    assert doc.status == 2
    return {'documents': len(again._documents)}


@step
def document_text_and_update():
    doc = state['doc']
    doc.update()
    assert doc.ocr_ready is True
    assert os.path.isfile(doc.txt_file_path) and os.path.isfile(doc.annotation_file_path) and os.path.isfile(doc.annotation_set_file_path)
    return {'chars': len(doc.text)}


@step
def pages():
    doc = state['doc']
    pages = doc.pages()
    assert len(pages) == 1 and pages[0].number == 1 and pages[0].index == 0
    assert (pages[0].width, pages[0].height) == (595, 842), (pages[0].width, pages[0].height)
    assert pages[0].text == doc.text.split('\f')[0]
    assert pages[0].category == doc.category
    return {'size': [pages[0].width, pages[0].height], 'image_size': [pages[0].image_width, pages[0].image_height]}


@step
def page_image():
    page = state['doc'].pages()[0]
    image = page.get_image(update=True)
    assert type(image) is PngImageFile
    assert image.size == (page.image_width, page.image_height), (image.size, page.image_width, page.image_height)
    return {'size': list(image.size)}


@step
def page_image_from_bytes():
    page = state['doc'].pages()[0]
    data = open(page.image_path, 'rb').read()
    page.image = None
    page.image_bytes = data
    assert type(page.get_image()) is PngImageFile
    return {'bytes': len(data)}


@step
def document_images():
    paths_or_images = state['doc'].get_images(update=True)
    assert len(paths_or_images) == 1
    return {'pages': len(paths_or_images)}


@step
def get_bbox():
    doc = state['doc']
    bbox = doc.get_bbox()
    assert len(bbox) > 0, 'no character boxes'
    assert os.path.isfile(doc.bbox_file_path)
    printed = [i for i, c in enumerate(doc.text) if not c.isspace()]
    assert all(str(i) in bbox for i in printed), 'a printed character has no box'
    return {'boxes': len(bbox)}


@step
def character_bboxes():
    doc = state['doc']
    boxes = doc.bboxes
    start, end = offsets(doc, LINE_1.split()[0])
    for i in range(start, end):
        box = boxes[i]
        assert 0 <= box.x0 < box.x1 <= 595 and 0 <= box.y0 < box.y1 <= 842, box
    return {'first': [boxes[start].x0, boxes[start].y0, boxes[start].x1, boxes[start].y1]}


@step
def span_bbox_and_line():
    doc = state['doc']
    first_word, second_word = LINE_1.split()[0], LINE_2.split()[0]
    a = Span(*offsets(doc, first_word), document=doc)
    b = Span(*offsets(doc, second_word), document=doc)
    assert a.offset_string == first_word and b.offset_string == second_word
    assert a.line_index == 0 and b.line_index == 1, (a.line_index, b.line_index)
    assert a.bbox().y0 > b.bbox().y1, 'the first line is above the second'
    return {'first': [a.bbox().x0, a.bbox().y0], 'second': [b.bbox().x0, b.bbox().y0]}


@step
def ocr_and_original_files():
    doc = state['doc']
    ocr = doc.get_file(ocr_version=True)
    original = doc.get_file(ocr_version=False)
    assert open(ocr, 'rb').read(5) == b'%PDF-' and open(original, 'rb').read(5) == b'%PDF-'
    assert os.path.basename(ocr).endswith('_ocr.pdf'), ocr
    return {'ocr': os.path.basename(ocr), 'original': os.path.basename(original)}


@step
def annotation_save_in_default_set():
    # TestOnlineProject.test_create_annotation_then_delete_annotation, first part.
    doc = state['doc']
    project = state['project']
    label = project.get_label_by_name('Vorname')
    word = LINE_1.split()[1]
    span = Span(*offsets(doc, word))
    assert span not in doc.spans()
    # The document has no Annotation yet, so its default Annotation Set is made here (as the SDK's
    # test_create_bbox_annotation makes a new set): Document.default_annotation_set needs one loaded.
    default_set = AnnotationSet(document=doc, label_set=doc.category.default_label_set)
    assert default_set.label_set.is_default
    annotation = Annotation(document=doc, annotation_set=default_set, spans=[span], label=label, accuracy=1.0, is_correct=True)
    # Spec 7.1: a new Annotation names its Annotation Set or its Label Set; this set is not online yet.
    assert annotation.save(label_set_id=default_set.label_set.id_) is True
    assert annotation.id_
    assert annotation in doc.annotations()
    doc.update()
    assert annotation in doc.annotations()
    online = doc.get_annotation_by_id(annotation.id_)
    assert online.offset_string == [word], online.offset_string
    assert online.is_online and online.confidence == 1.0 and online.is_correct
    state['first_annotation'] = annotation
    return {'id': annotation.id_, 'offset_string': online.offset_string}


@step
def annotation_over_two_lines():
    # A multi-line Annotation (TestOnlineProject.test_document_with_multiline_annotation): one Span a line.
    doc = state['doc']
    label = state['project'].get_label_by_name('Anschrift')
    last_of_1 = LINE_1.split()[-1]
    first_of_2 = LINE_2.split()[0]
    spans = [Span(*offsets(doc, last_of_1)), Span(*offsets(doc, first_of_2))]
    annotation = Annotation(document=doc, annotation_set=doc.default_annotation_set, spans=spans, label=label, accuracy=1.0, is_correct=True)
    assert annotation.annotation_set.id_, 'the default Annotation Set is online since the first Annotation'
    annotation.save(annotation_set_id=annotation.annotation_set.id_)
    doc.update()
    online = doc.get_annotation_by_id(annotation.id_)
    assert [(s.start_offset, s.end_offset) for s in online.spans] == [(s.start_offset, s.end_offset) for s in spans]
    assert online.offset_string == [last_of_1, first_of_2], online.offset_string
    assert [s.line_index for s in online.spans] == [0, 1]
    state['multiline_id'] = annotation.id_
    return {'spans': [[s.start_offset, s.end_offset] for s in online.spans]}


@step
def annotations_after_reload_from_files():
    # A second Project reads the same document from its files and builds the same Annotations.
    again = Project(id_=PROJECT_ID)
    doc = again.get_document_by_id(state['doc'].id_)
    got = sorted((a.label.name, tuple((s.start_offset, s.end_offset) for s in a.spans)) for a in doc.annotations())
    mine = sorted((a.label.name, tuple((s.start_offset, s.end_offset) for s in a.spans)) for a in state['doc'].annotations())
    assert got == mine and len(got) == 2, (got, mine)
    return {'annotations': len(got)}


@step
def saved_annotation_cannot_be_saved_again():
    doc = state['doc']
    try:
        doc.annotations()[0].save()
    except ValueError as e:
        assert 'cannot update Annotations once saved online' in str(e)
        return {'refused': True}
    raise AssertionError('saving an online Annotation again was not refused')


@step
def no_label_annotation_not_saved():
    # TestOnlineProject.test_document_no_label_annotations_after_update
    doc = state['doc']
    project = state['project']
    _ = Annotation(document=doc, label=project.no_label, label_set=project.no_label_set, spans=[Span(start_offset=0, end_offset=1)])
    try:
        _.save()
        raise AssertionError('a NO_LABEL Annotation was saved')
    except ValueError as e:
        assert 'save Annotations with Label NO_LABEL' in str(e)
    assert len(doc.annotations(use_correct=False, label=project.no_label)) == 1
    doc.update()
    assert len(doc.annotations(use_correct=False, label=project.no_label)) == 0
    return {}


def in_repeating_label_set(label_name):
    """The document, a Label of the repeating Label Set 'Brutto-Bezug', and that Label Set."""
    project = state['project']
    return state['doc'], project.get_label_by_name(label_name), project.get_label_set_by_name('Brutto-Bezug')


@step
def annotation_in_a_new_set_of_a_repeating_label_set():
    # TestOnlineProject.test_create_bbox_annotation: an Annotation from a box, in a new Annotation Set.
    doc, label, label_set = in_repeating_label_set('Lohnart')
    word = LINE_2.split()[1]
    start, end = offsets(doc, word)
    boxes = [doc.bboxes[i] for i in range(start, end)]
    bbox = {'page_index': 0, 'x0': min(b.x0 for b in boxes) - 0.5, 'x1': max(b.x1 for b in boxes) + 0.5,
            'y0': min(b.y0 for b in boxes) - 0.5, 'y1': max(b.y1 for b in boxes) + 0.5}
    annotation_set = AnnotationSet(document=doc, label_set=label_set)
    annotation = Annotation(document=doc, annotation_set=annotation_set, label=label, label_set_id=label_set.id_,
                            accuracy=1.0, is_correct=True, bboxes=[bbox])
    assert annotation.offset_string == [word], annotation.offset_string
    annotation.save(label_set_id=label_set.id_)
    assert annotation in doc.annotations()
    doc.update()
    assert annotation in doc.annotations()
    online = doc.get_annotation_by_id(annotation.id_)
    assert online.annotation_set.label_set == label_set and online.annotation_set.id_
    assert abs(online.bbox().x0 - min(b.x0 for b in boxes)) < 1 and abs(online.bbox().x1 - max(b.x1 for b in boxes)) < 1
    state['brutto_first_set'] = online.annotation_set.id_
    return {'annotation_set': online.annotation_set.id_, 'bbox': [online.bbox().x0, online.bbox().x1, online.bbox().y0, online.bbox().y1]}


@step
def second_annotation_set_of_the_same_label_set():
    doc, label, label_set = in_repeating_label_set('Bezeichnung')
    word = LINE_2.split()[2]
    annotation_set = AnnotationSet(document=doc, label_set=label_set)
    annotation = Annotation(document=doc, annotation_set=annotation_set, label=label, label_set_id=label_set.id_,
                            spans=[Span(*offsets(doc, word))], accuracy=1.0, is_correct=True)
    annotation.save(label_set_id=label_set.id_)
    doc.update()
    sets = doc.annotation_sets(label_set=label_set)
    assert len(sets) == 2, sets
    assert sorted(len(s.annotations()) for s in sets) == [1, 1]
    return {'sets': sorted(s.id_ for s in sets)}


@step
def label_annotations_across_the_category():
    project = state['project']
    category = project.get_category_by_id(CATEGORY_ID)
    doc = state['doc']
    doc.dataset_status = 2  # Label.annotations reads training documents
    doc.save_meta_data()
    refreshed = refreshed_document(doc.id_)
    state['doc'] = refreshed
    label = project.get_label_by_name('Anschrift')
    annotations = label.annotations(categories=[category])
    assert len(annotations) == 1 and annotations[0].id_ == state['multiline_id'], annotations
    assert refreshed in project.documents
    return {'annotations': len(annotations)}


@step
def delete_annotation_offline_then_online():
    # TestOnlineProject.test_create_annotation_then_delete_annotation, second and third parts.
    doc = state['doc']
    annotation = doc.get_annotation_by_id(state['first_annotation'].id_)
    annotation.delete(delete_online=False)
    assert annotation not in doc.get_annotations()
    doc.update()
    assert annotation in doc.get_annotations()
    annotation = doc.get_annotation_by_id(state['first_annotation'].id_)
    annotation.delete()
    assert annotation not in doc.get_annotations()
    doc.update()
    assert annotation not in doc.get_annotations()
    return {'left': len(doc.annotations())}


@step
def document_save():
    # tutorials/ner-ontonotes-fast: Annotations made locally, then doc.save(): the metadata, then each new
    # Annotation by Annotation.save() without an Annotation Set or Label Set id. Spec 7.1 refuses such a
    # create (400); the SDK logs the refusal and keeps the Annotation offline.
    doc = state['doc']
    project = state['project']
    word = LINE_1.split()[0]
    annotation = Annotation(document=doc, annotation_set=doc.default_annotation_set, spans=[Span(*offsets(doc, word))],
                            label=project.get_label_by_name('Vorname'), accuracy=0.9, is_correct=False)
    doc.name = 'two-lines renamed.pdf'
    doc.save()
    assert annotation.id_ is None
    assert any('/api/v3/annotations/ -> 400' in r and 'annotation_set' in r for r in refusals), refusals
    refreshed = refreshed_document(doc.id_)
    assert refreshed.name == 'two-lines renamed.pdf', refreshed.name
    refreshed.name = os.path.basename(TWO_LINES_PDF)
    refreshed.save_meta_data()
    state['doc'] = refreshed_document(doc.id_)
    assert state['doc'].name == os.path.basename(TWO_LINES_PDF)
    return {'refused': True}


@step
def view_annotations():
    doc = state['doc']
    viewed = doc.view_annotations()
    assert sorted(a.label.name for a in viewed) == ['Anschrift', 'Bezeichnung', 'Lohnart'], viewed  # Vorname was deleted
    return {'viewed': len(viewed)}


@step
def segmentation_of_document_and_virtual_copy():
    # TestOnlineProject.test_get_segmentation: one result a page; a virtual copy reads the original's.
    document = state['doc']
    page = document.get_page_by_index(0)
    segmentation = document.get_segmentation()
    assert len(segmentation) == 1 and isinstance(segmentation[0], list), segmentation
    assert page._segmentation == segmentation[0]
    virtual = deepcopy(document)
    assert virtual.get_segmentation(timeout=0.1, num_retries=1) == segmentation
    assert virtual.get_page_by_index(0)._segmentation is None
    return {'boxes': len(segmentation[0])}


@step
def sentence_spans_from_bbox():
    # TestOnlineProject.test_get_sentence_spans_from_bbox, with the SDK's textposition.pdf.
    document = Document.from_file(path=os.path.join(SDK_TEST_DATA, 'textposition.pdf'), project=state['project'])
    state['textposition'] = document
    document = WhitespaceTokenizer().tokenize(deepcopy(document))
    page = document.get_page_by_index(0)
    bbox = Bbox(x0=39, y0=728, x1=539, y1=742, page=page)
    assert bbox.document is document
    sentences = Span.get_sentence_from_spans(spans=get_spans_from_bbox(selection_bbox=bbox))
    assert len(sentences) == 2, sentences
    assert len(sentences[0]) == 1 and sentences[0][0].offset_string == 'Hi, my name is LeftTop.', sentences
    return {'first': sentences[0][0].offset_string}


@step
def modify_metadata_and_refresh():
    # TestOnlineProject.test_modify_document_metadata and the tutorial's "Modify Document".
    doc = state['project'].get_document_by_id(state['async_id'])
    doc.assignee = 424242
    doc.dataset_status = 1
    try:
        doc.save_meta_data()
        raise AssertionError('an unknown assignee was accepted')
    except HTTPError as e:
        assert 'Invalid user' in str(e), str(e)
    doc.assignee = USER_ID
    doc.dataset_status = 3
    doc.save_meta_data()
    refreshed = refreshed_document(state['async_id'])
    assert refreshed.assignee == USER_ID, refreshed.assignee
    assert refreshed.dataset_status == 3
    assert refreshed in state['project'].test_documents
    return {'assignee': refreshed.assignee, 'dataset_status': refreshed.dataset_status}


@step
def create_modify_and_delete_document():
    # TestOnlineProject.test_create_modify_and_delete_document
    project = state['project']
    doc = Document.from_file(os.path.join(SDK_TEST_DATA, 'pdf.pdf'), project)
    doc_id = doc.id_
    doc.dataset_status = 1
    doc.save_meta_data()
    assert doc in project.preparation_documents
    assert doc.name == 'pdf.pdf'
    assert doc.get_file(ocr_version=True).split('/')[-1] == 'pdf_ocr.pdf'
    assert doc.dataset_status == 1 and doc.assignee is None
    try:
        doc.delete(delete_online=True)
        raise AssertionError('a document of a dataset was deleted')
    except HTTPError as e:
        assert 'documents which are part of a dataset' in str(e), str(e)
    doc.dataset_status = 0
    doc.save_meta_data()
    doc.update()
    assert doc.dataset_status == 0
    doc.delete(delete_online=False)
    try:
        project.get_document_by_id(doc_id)
        raise AssertionError('a locally deleted document is still there')
    except IndexError as e:
        assert 'was not found in' in str(e)
    project.init_or_update_document(from_online=True)
    doc = project.get_document_by_id(doc_id)
    doc.delete(delete_online=True)
    project.init_or_update_document()
    try:
        project.get_document_by_id(doc_id)
        raise AssertionError('a document deleted online is still there')
    except IndexError as e:
        assert 'was not found in' in str(e)
    return {'deleted': doc_id}


@step
def invalid_file_refused_before_upload():
    try:
        Document.from_file(os.path.join(SDK_TEST_DATA, 'invalid_pdf.pdf'), state['project'])
        raise AssertionError('an invalid file was uploaded')
    except NotImplementedError as e:
        assert 'We do not support file' in str(e)
    return {}


def image_document(name):
    document = Document.from_file(path=os.path.join(SDK_TEST_DATA, name), project=state['project'])
    image = document.pages()[0].get_image()
    assert isinstance(image, PngImageFile), type(image)
    document.delete(delete_online=True)
    return {'size': list(image.size)}


@step
def image_of_png_upload():
    return image_document('png.png')


@step
def image_of_jpeg_upload():
    return image_document('jpg.jpg')


@step
def image_of_pdf_upload():
    return image_document('pdf.pdf')


@step
def set_category_manually():
    # tutorials/set-category-manually: a document without a category gets one.
    doc = state['textposition']
    category = state['project'].get_category_by_id(CATEGORY_ID)
    doc.set_category(None)
    assert doc.category == state['project'].no_category
    doc.set_category(category)
    assert doc.category == category and doc.category_is_revised
    return {'category': doc.category.id_}


@step
def ai_models():
    ais = state['project'].ai_models
    assert set(ais) == {'extraction', 'filesplitting', 'categorization'}
    for kind, listed in ais.items():
        assert isinstance(listed, list), (kind, listed)
    return {kind: len(listed) for kind, listed in ais.items()}


@step
def project_folder_after_refresh():
    project = Project(id_=PROJECT_ID, update=True)
    doc = project.get_document_by_id(state['doc'].id_)
    assert doc.status == 2 and doc.dataset_status == 2
    assert len(doc.annotations()) == 3, doc.annotations()
    assert doc.get_bbox(), 'no boxes after a full refresh'
    return {'documents': len(project._documents), 'training': len(project.documents), 'test': len(project.test_documents)}


def main():
    selected = sys.argv[1:]
    for fn in STEPS:
        if selected and fn.__name__ not in selected:
            continue
        refusals.clear()
        try:
            got = fn() or {}
            out = {'step': fn.__name__, 'ok': True, 'got': got}
        except Exception as e:  # noqa: BLE001 - every failure is reported, the run goes on
            out = {'step': fn.__name__, 'ok': False, 'error': f'{type(e).__name__}: {e}', 'trace': traceback.format_exc(limit=4), 'refusals': refusals[-3:]}
        print(json.dumps(out, default=str), flush=True)


if __name__ == '__main__':
    main()

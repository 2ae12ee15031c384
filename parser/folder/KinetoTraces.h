#pragma once

// PyTorch profiler (Kineto) GPU traces in a folder (FORMATS.md §10.1): `<worker>.<time>.pt.trace.json[.gz]`
// written by tensorboard_trace_handler, or any `*.json[.gz]` whose top level is an object with
// `traceEvents`. The folder detector offers them to the readers as sources (one trace: a profile; several:
// the ranks of a cluster) and the cluster reader reads them as GPU ranks. Only the first bytes of a file are
// read here (gzip inflated on the fly), never the whole trace.

#include "folder/FolderListing.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace at {

// How much of a trace's head is read to tell a Kineto trace from other JSON and to find its
// distributedInfo (which current torch.profiler writes before traceEvents).
inline constexpr qint64 kKinetoHeadBytes = qint64(1) << 20;

// `*.pt.trace.json` / `*.pt.trace.json.gz`: tensorboard_trace_handler's names.
bool isKinetoTraceName(const QString &name);

// The first `maxBytes` bytes of a file, gzip inflated when it starts with the gzip magic; empty when it
// cannot be read.
QByteArray readTraceHead(const QString &path, qint64 maxBytes = kKinetoHeadBytes);

// A JSON object (after whitespace and a BOM) with a "traceEvents" member in the head (torch_npu and msprof
// write arrays, FORMATS.md §10.1).
bool looksLikeKinetoHead(const QByteArray &head);

// distributedInfo.rank when the head holds the whole distributedInfo object; nullopt otherwise (absent,
// after traceEvents, or no valid rank).
std::optional<int> distributedRankInHead(const QByteArray &head);

// The Kineto traces of one folder, natural order: files named like tensorboard_trace_handler's, and other
// `*.json` / `*.json.gz` files whose head is a Kineto trace's. Reads the heads of the latter only.
QStringList kinetoTracesIn(const FolderListing &folder);

// Every Kineto trace at or below `path` (a folder, at most `maxDepth` levels down; linked folders are not
// followed), natural order by path; `path` itself when it is a trace file (by name or first bytes).
QStringList findKinetoTraces(const QString &path, int maxDepth = 6);

} // namespace at

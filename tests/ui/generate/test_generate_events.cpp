// The Generate tab's model without a window: `moe-train generate --telemetry` lines read into
// typed events (bad ones counted and skipped, unknown ones ignored, chunks cut anywhere read as
// whole lines), the session they build from a recorded generation, the command line a request
// makes, prompts typed as text or token ids, and what a model folder is.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <numeric>

#include "base/generate/generate_events.h"
#include "base/generate/generate_request.h"
#include "base/generate/generate_session.h"
#include "base/generate/model_folder.h"
#include "generate_test_data.h"

using namespace moe::ui;
using Kind = GenerateLine::Kind;

class TestGenerateEvents : public QObject {
  Q_OBJECT

 private slots:
  void readsEachTypeIntoItsFields() {
    const GenerateLine start = parseGenerateLine(
        R"({"v":1,"type":"generate_start","t":0,"model":"m","prompts":3,"batch_size":2,)"
        R"("max_new_tokens":16,"moe_layers":[{"layer":1,"experts":8,"top_k":2},)"
        R"({"layer":3,"experts":4,"top_k":1}],"new_key":[1]})");
    QCOMPARE(start.kind, Kind::Start);
    QCOMPARE(start.start.prompts, 3);
    QCOMPARE(start.start.batch_size, 2);
    QCOMPARE(start.start.max_new_tokens, 16);
    QCOMPARE(start.start.moe_layers.size(), size_t{2});
    QCOMPARE(start.start.moe_layers[1].layer, 3);
    QCOMPARE(start.start.moe_layers[1].experts, 4);

    const GenerateLine token = parseGenerateLine(
        R"({"v":1,"type":"token","t":0.25,"prompt":1,"index":4,"id":501,"piece":"é",)"
        R"("routing":[{"layer":1,"experts":[5,2],"weights":[0.6,0.4]}]})");
    QCOMPARE(token.kind, Kind::Token);
    QCOMPARE(token.token.prompt, 1);
    QCOMPARE(token.token.index, 4);
    QCOMPARE(token.token.id, int64_t{501});
    QCOMPARE(token.token.piece, QStringLiteral("é"));
    QCOMPARE(token.token.t, 0.25);
    QCOMPARE(token.token.routing[0].experts, (std::vector<int>{5, 2}));
    QCOMPARE(token.token.routing[0].weights[1], 0.4);

    const GenerateLine step = parseGenerateLine(
        R"({"v":1,"type":"decode_step","t":1,"step":7,"batch":2,"ms":12.5,"tokens_per_s":160,)"
        R"("phases":{"attention":3,"experts":6.5}})");
    QCOMPARE(step.kind, Kind::DecodeStep);
    QCOMPARE(step.step.step, 7);
    QCOMPARE(step.step.tokens_per_s, 160.0);
    QCOMPARE(step.step.phases_ms.at(QStringLiteral("experts")), 6.5);

    const GenerateLine end = parseGenerateLine(
        R"({"v":1,"type":"prompt_end","t":1,"prompt":0,"finish":"stop_string","tokens":9,)"
        R"("text":"abc","ttft_ms":31,"prefill_ms":20})");
    QCOMPARE(end.kind, Kind::PromptEnd);
    QCOMPARE(end.prompt_end.finish, QStringLiteral("stop_string"));
    QCOMPARE(end.prompt_end.ttft_ms, 31.0);
  }

  void reportsBadLinesAndIgnoresUnknownOnes() {
    QCOMPARE(parseGenerateLine("not json").kind, Kind::Bad);
    QCOMPARE(parseGenerateLine("[1,2]").kind, Kind::Bad);
    QCOMPARE(parseGenerateLine(R"({"v":1,"t":0})").kind, Kind::Bad);  // no type
    // A token without its id, and one whose experts and weights differ in length.
    const GenerateLine no_id = parseGenerateLine(
        R"({"v":1,"type":"token","prompt":0,"index":0,"piece":"a","routing":[]})");
    QCOMPARE(no_id.kind, Kind::Bad);
    QVERIFY2(no_id.error.contains("id"), qPrintable(no_id.error));
    QCOMPARE(parseGenerateLine(R"({"v":1,"type":"token","prompt":0,"index":0,"id":1,"piece":"a",)"
                               R"("routing":[{"layer":0,"experts":[1,2],"weights":[1]}]})")
                 .kind,
             Kind::Bad);
    QCOMPARE(parseGenerateLine(R"({"v":1,"type":"token","prompt":0.5,"index":0,"id":1,)"
                               R"("piece":"a","routing":[]})")
                 .kind,
             Kind::Bad);
    QCOMPARE(parseGenerateLine(R"({"v":1,"type":"kv_cache","t":0,"bytes":9})").kind, Kind::Unknown);
    QCOMPARE(parseGenerateLine(R"({"v":2,"type":"token","t":0})").kind, Kind::Unknown);
  }

  void readsChunksCutAnywhereAsWholeLines() {
    const QByteArray bytes = test::recordedGeneration();
    GenerateLineReader whole;
    std::vector<GenerateLine> expected = whole.feed(bytes);
    for (const GenerateLine& line : whole.finish()) expected.push_back(line);
    QCOMPARE(expected.size(), size_t{26});
    for (int chunk : {1, 7, 64, 333}) {
      GenerateLineReader reader;
      std::vector<GenerateLine> lines;
      for (qsizetype at = 0; at < bytes.size(); at += chunk) {
        for (GenerateLine& line : reader.feed(bytes.mid(at, chunk)))
          lines.push_back(std::move(line));
      }
      for (GenerateLine& line : reader.finish()) lines.push_back(std::move(line));
      QCOMPARE(lines.size(), expected.size());
      for (size_t i = 0; i < lines.size(); ++i) QCOMPARE(lines[i].kind, expected[i].kind);
    }
    // A last line without its newline still counts once the stream ends.
    GenerateLineReader reader;
    QVERIFY(reader.feed(R"({"v":1,"type":"generate_end","t":1,"tokens":3})").empty());
    const auto last = reader.finish();
    QCOMPARE(last.size(), size_t{1});
    QCOMPARE(last[0].end.tokens, int64_t{3});
  }

  void buildsTheSessionOfARecordedGeneration() {
    GenerateLineReader reader;
    GenerateSession session;
    const auto changes = session.add(reader.feed(test::recordedGeneration()));
    QVERIFY(changes.started && changes.prompts && changes.steps && changes.ended);
    QCOMPARE(changes.tokens.size(), size_t{12});
    QCOMPARE(session.badLines(), 1);  // "this is not json"; the unknown type is no problem
    QCOMPARE(session.prompts().size(), size_t{2});
    QCOMPARE(session.prompts()[0].pieces.join(QString()), QStringLiteral("Hi"));
    QCOMPARE(session.generatedCount(), int64_t{12});
    QString text;
    for (const GeneratedToken& token : session.prompts()[0].generated) text += token.piece;
    QCOMPARE(text, session.prompts()[0].end->text);
    // Token 2 of prompt 1 chose experts (2 + 1 + l) % 8 first in layer l.
    QCOMPARE(session.token(1, 2)->topExpert(2), 5);
    QCOMPARE(session.token(1, 2)->topExpert(9), -1);  // no such MoE layer
    QVERIFY(!session.token(2, 0));
    // Every layer counts both choices of each of the 12 tokens.
    for (const auto& counts : session.load()) {
      QCOMPARE(std::accumulate(counts.begin(), counts.end(), int64_t{0}), int64_t{24});
    }
    QCOMPARE(session.layerPosition(2), 2);
    QCOMPARE(session.steps().size(), size_t{6});
    QCOMPARE(session.decodeTokensPerS(), 91.5);  // generate_end's
    QCOMPARE(session.ttftMs(), 50.0);
    const auto phases = session.phaseTotals();
    QCOMPARE(phases.front().first, QStringLiteral("attention"));
    QCOMPARE(phases.back().first, QStringLiteral("other"));
    QCOMPARE(phases.front().second, 30.0);
  }

  void liveFiguresBeforeTheEnd() {
    GenerateSession session;
    GenerateLineReader reader;
    QByteArray bytes = test::recordedGeneration();
    // Up to the third decode step: no ends yet.
    const qsizetype cut = bytes.indexOf("this is not json");
    session.add(reader.feed(bytes.left(cut)));
    QVERIFY(!session.end());
    QCOMPARE(session.ttftMs(), 50.0);                   // the first token's time, 0.05 s
    QCOMPARE(session.decodeTokensPerS(), 2000 / 22.0);  // the last step's
  }

  void countsTokensOutOfOrderAsBad() {
    GenerateSession session;
    GenerateLineReader reader;
    session.add(
        reader.feed(test::recordedGeneration().left(test::recordedGeneration().indexOf("\n") + 1)));
    const auto changes = session.add(reader.feed(
        R"({"v":1,"type":"token","t":0,"prompt":0,"index":3,"id":1,"piece":"a","routing":[]})"
        "\n"));
    QVERIFY(changes.tokens.empty());
    QCOMPARE(session.badLines(), 1);
    QVERIFY(session.lastBadLine().contains("index 3"));
  }

  void makesTheCommandLine() {
    GenerateRequest request;
    request.model = QStringLiteral("/m");
    request.prompts = {QStringLiteral("a b"), QStringLiteral("c")};
    request.sampling.greedy = true;
    request.sampling.max_new_tokens = 8;
    request.sampling.stop = QStringLiteral(".");
    QCOMPARE(request.arguments(),
             (QStringList{"generate", "--model", "/m", "--telemetry", "-", "--prompt", "a b",
                          "--prompt", "c", "--max-new-tokens", "8", "--greedy", "--stop", "."}));
    request.sampling.greedy = false;
    request.sampling.stop.clear();
    request.sampling.temperature = 0.7;
    request.sampling.top_k = 40;
    request.sampling.top_p = 0.9;
    request.sampling.seed = 3;
    request.sampling.batch_size = 4;
    request.prompts.clear();
    request.prompt_tokens = {{1, 2}, {3}};
    QCOMPARE(request.arguments("/tmp/ids.json"),
             (QStringList{"generate", "--model", "/m", "--telemetry", "-", "--prompt-tokens",
                          "/tmp/ids.json", "--max-new-tokens", "8", "--temperature", "0.7",
                          "--top-k", "40", "--top-p", "0.9", "--seed", "3", "--batch-size", "4"}));
    QCOMPARE(request.promptTokensJson(), QByteArray("[[1,2],[3]]"));
  }

  void readsPromptsAsTextOrTokenIds() {
    QCOMPARE(splitPrompts(QStringLiteral("one\ntwo lines\n---\nsecond\n ---\n\n---")),
             (QStringList{"one\ntwo lines", "second"}));
    QCOMPARE(splitPrompts(QStringLiteral("---\nonly")), QStringList{"only"});
    QString error;
    const auto ids = parsePromptIds(QStringLiteral("1 2, 3\n\n[4,5]\n"), &error);
    QVERIFY2(ids, qPrintable(error));
    QCOMPARE(*ids, (std::vector<std::vector<int64_t>>{{1, 2, 3}, {4, 5}}));
    QVERIFY(!parsePromptIds(QStringLiteral("1 2\n3 x"), &error));
    QVERIFY2(error.contains("line 2") && error.contains("\"x\""), qPrintable(error));
    QVERIFY(!parsePromptIds(QStringLiteral("  \n"), &error));
  }

  void tellsWhatAModelFolderIs() {
    QTemporaryDir dir;
    const QString hf = dir.filePath("hf");
    QVERIFY(test::writeFile(hf + "/config.json", R"({"model_type":"olmoe","vocab_size":50})"));
    QVERIFY(test::writeFile(hf + "/tokenizer.json", "{}"));
    ModelFolder folder = inspectModelFolder(hf);
    QCOMPARE(folder.kind, ModelFolder::Kind::HuggingFace);
    QVERIFY(folder.has_tokenizer);
    QCOMPARE(folder.vocab, 50);

    const QString run = dir.filePath("run");
    QVERIFY(test::writeFile(run + "/config.json",
                            R"({"name":"tiny","model":{"kind":"decoder","vocab":256}})"));
    QVERIFY(test::writeFile(run + "/checkpoints/step-2/state.json", "{}"));
    QVERIFY(test::writeFile(run + "/checkpoints/step-10/state.json", "{}"));
    QVERIFY(test::writeFile(run + "/checkpoints/step-20/model.safetensors", ""));  // incomplete
    folder = inspectModelFolder(run);
    QCOMPARE(folder.kind, ModelFolder::Kind::Run);
    QVERIFY(!folder.has_tokenizer);
    QVERIFY2(folder.summary.contains("step-10"), qPrintable(folder.summary));
    folder = inspectModelFolder(run + "/checkpoints/step-2");
    QCOMPARE(folder.kind, ModelFolder::Kind::Checkpoint);
    QCOMPARE(folder.vocab, 256);

    const QString image = dir.filePath("image");
    QVERIFY(test::writeFile(image + "/config.json", R"({"model":{"kind":"image"}})"));
    QVERIFY(test::writeFile(image + "/checkpoints/step-1/state.json", "{}"));
    folder = inspectModelFolder(image);
    QVERIFY(!folder.ok());
    QVERIFY2(folder.error.contains("image") && folder.error.contains("decoder"),
             qPrintable(folder.error));
    folder = inspectModelFolder(dir.filePath("nothing"));
    QVERIFY2(!folder.ok() && folder.error.contains("not a folder"), qPrintable(folder.error));
    QDir().mkpath(dir.filePath("empty"));
    folder = inspectModelFolder(dir.filePath("empty"));
    QVERIFY2(!folder.ok() && folder.error.contains("checkpoint"), qPrintable(folder.error));
  }
};

QTEST_GUILESS_MAIN(TestGenerateEvents)
#include "test_generate_events.moc"

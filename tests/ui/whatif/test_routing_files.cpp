// What the What-if view reads before it starts the engine: a safetensors file's header (and its
// faults), the MoE layers in it under their prefixes, the config replay gets, the run config it
// trusts, and the lines of `moe-train replay --serve` (requests written, answers parsed).
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <cmath>

#include "base/whatif/replay_answer.h"
#include "base/whatif/routing_setting.h"
#include "base/whatif/routing_tensors.h"
#include "base/whatif/safetensors_header.h"
#include "base/whatif/whatif_source.h"
#include "safetensors_test_file.h"

using moe::test::TestTensor;
using namespace moe::ui;

namespace {

// A top-gated layer of E experts, dim M, hidden H under `prefix`, with the fc1 bias only.
std::map<std::string, TestTensor> layerTensors(const std::string& prefix, int64_t E, int64_t M,
                                               int64_t H) {
  return {{prefix + "gates.0.wg.weight", {"F32", {E, M}, {}}},
          {prefix + "experts.batched_fc1_w", {"F32", {E, H, M}, {}}},
          {prefix + "experts.batched_fc2_w", {"F32", {E, H, M}, {}}},
          {prefix + "experts.batched_fc1_bias", {"F32", {E, H}, {}}}};
}

}  // namespace

class TestRoutingFiles : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir dir_;

  QString write(const QString& name, std::map<std::string, TestTensor> tensors) {
    const QString path = dir_.filePath(name);
    if (!moe::test::writeSafetensors(path, tensors)) return {};
    return path;
  }

  QString writeBytes(const QString& name, const QByteArray& bytes) {
    const QString path = dir_.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return {};
    file.write(bytes);
    return path;
  }

 private slots:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void headerListsNamesShapesAndOffsets() {
    auto tensors = layerTensors("", 4, 8, 16);
    tensors["input"] = {"BF16", {2, 3, 8}, {}};
    const QString path = write("layer.safetensors", tensors);
    QString error;
    const auto header = readSafetensorsHeader(path, &error);
    QVERIFY2(header, qPrintable(error));
    QCOMPARE(header->tensors.size(), size_t{5});
    const TensorEntry* input = header->find("input");
    QVERIFY(input);
    QCOMPARE(input->dtype, std::string("BF16"));
    QCOMPARE(input->shape, (std::vector<int64_t>{2, 3, 8}));
    QCOMPARE(input->end - input->begin, uint64_t{2 * 3 * 8 * 2});
    QCOMPARE(shapeText(input->shape), QString("[2, 3, 8]"));
    QVERIFY(!header->find("nothing"));
  }

  void brokenHeadersNameTheFileAndTheFault() {
    QString error;
    QVERIFY(!readSafetensorsHeader(dir_.filePath("missing.safetensors"), &error));
    QVERIFY2(error.contains("missing.safetensors"), qPrintable(error));

    const QString tiny = writeBytes("tiny.safetensors", "abc");
    QVERIFY(!readSafetensorsHeader(tiny, &error));
    QVERIFY2(error.contains("shorter than the 8-byte header length"), qPrintable(error));

    QByteArray huge(8, '\0');
    huge[0] = char(0xff);  // a header of 255 bytes in a file of 8
    QVERIFY(!readSafetensorsHeader(writeBytes("huge.safetensors", huge), &error));
    QVERIFY2(error.contains("header length 255"), qPrintable(error));

    QByteArray not_json("\x04\0\0\0\0\0\0\0[1,2", 12);
    QVERIFY(!readSafetensorsHeader(writeBytes("array.safetensors", not_json), &error));
    QVERIFY2(error.contains("not valid JSON"), qPrintable(error));

    const std::string outside = R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})";
    QByteArray short_data(8, '\0');
    short_data[0] = static_cast<char>(outside.size());
    short_data += QByteArray::fromStdString(outside) + QByteArray(4, '\0');  // 4 of 8 bytes
    QVERIFY(!readSafetensorsHeader(writeBytes("short.safetensors", short_data), &error));
    QVERIFY2(error.contains("tensor 'w'") && error.contains("beyond the data buffer of 4 bytes"),
             qPrintable(error));

    // What the engine refuses, the view refuses: a name twice (JSON readers keep one of them),
    // and a NUL byte (the text after it would go unread).
    const auto withHeader = [](const std::string& text, int data_bytes) {
      std::string padded = text;
      padded.append((8 - padded.size() % 8) % 8, ' ');
      QByteArray bytes(8, '\0');
      bytes[0] = static_cast<char>(padded.size());
      return bytes + QByteArray(padded.data(), static_cast<qsizetype>(padded.size())) +
             QByteArray(data_bytes, '\0');
    };
    const std::string twice = R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                              R"("w":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})";
    QVERIFY(!readSafetensorsHeader(writeBytes("twice.safetensors", withHeader(twice, 8)), &error));
    QVERIFY2(error.contains("duplicate tensor name 'w'"), qPrintable(error));
    const std::string nul =
        std::string(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})") + '\0' + "junk";
    QVERIFY(!readSafetensorsHeader(writeBytes("nul.safetensors", withHeader(nul, 4)), &error));
    QVERIFY2(error.contains("NUL byte"), qPrintable(error));
  }

  void findsLayersUnderTheirPrefixes() {
    auto tensors = layerTensors("blocks.1.moe.", 8, 16, 32);
    tensors.merge(layerTensors("blocks.3.moe.", 4, 16, 24));
    tensors["embed.weight"] = {"F32", {10, 16}, {}};
    tensors["input"] = {"F32", {64, 16}, {}};
    const QString path = write("model.safetensors", tensors);
    QString error;
    QCOMPARE(routingLayerPrefixes(path, &error), QStringList({"blocks.1.moe.", "blocks.3.moe."}));
    const auto header = readSafetensorsHeader(path, &error);
    const auto found = findRoutingLayers(*header, path, &error);
    QVERIFY2(found, qPrintable(error));
    const RoutingLayerShape* layer = found->layer("blocks.3.moe.");
    QVERIFY(layer);
    QCOMPARE(layer->experts, 4);
    QCOMPARE(layer->dim, 16);
    QCOMPARE(layer->hidden, 24);
    QCOMPARE(layer->gate, std::string("top"));
    QVERIFY(layer->fc1_bias);
    QVERIFY(!layer->fc2_bias);
    QCOMPARE(found->tokens, 64);
    QVERIFY(inputProblem(*found, *layer, path).isEmpty());
  }

  void gatedExpertsAreALayerToo() {
    const int64_t E = 4, M = 8, H = 16;
    std::map<std::string, TestTensor> tensors = {
        {"gates.0.wg.weight", {"F32", {E, M}, {}}},
        {"gates.0.wg.bias", {"F32", {E}, {}}},
        {"experts.batched_gate_w", {"F32", {E, H, M}, {}}},
        {"experts.batched_up_w", {"F32", {E, H, M}, {}}},
        {"experts.batched_down_w", {"F32", {E, H, M}, {}}},
        {"experts.batched_down_bias", {"F32", {E, M}, {}}}};
    QString error;
    const QString path = write("glu.safetensors", tensors);
    const auto header = readSafetensorsHeader(path, &error);
    QVERIFY2(header, qPrintable(error));
    const auto found = findRoutingLayers(*header, path, &error);
    QVERIFY2(found, qPrintable(error));
    const RoutingLayerShape& layer = found->layers.at(0);
    QCOMPARE(layer.expert_ffn, std::string("glu"));
    QCOMPARE(layer.hidden, H);
    QVERIFY(layer.gate_bias);
    QVERIFY(!layer.fc1_bias);
    QVERIFY(layer.fc2_bias);
    const auto config = replayConfig(layer, nlohmann::json::object());
    QVERIFY(config["moe"]["expert_ffn"] == "glu");
    QVERIFY(config["moe"]["gate_bias"] == true);
    QVERIFY(configMatches(layer, config, &error));
    auto plain = config;
    plain["moe"]["expert_ffn"] = "mlp";
    QVERIFY(!configMatches(layer, plain, &error));
    QVERIFY2(error.contains("moe.expert_ffn is not the tensors' glu"), qPrintable(error));

    tensors["experts.batched_up_w"] = {"F32", {E, H + 1, M}, {}};
    const QString bad = write("glu-bad.safetensors", tensors);
    QVERIFY(routingLayerPrefixes(bad, &error).isEmpty());
    QVERIFY2(error.contains("'experts.batched_up_w' has shape [4, 17, 8], expected [4, 16, 8]"),
             qPrintable(error));
  }

  void aLayerThatDoesNotAddUpIsNamed() {
    auto tensors = layerTensors("", 4, 8, 16);
    tensors["gates.0.wg.weight"] = {"F32", {4, 9}, {}};  // dim 9 against the experts' 8
    const QString path = write("mismatch.safetensors", tensors);
    QString error;
    QVERIFY(routingLayerPrefixes(path, &error).isEmpty());
    QVERIFY2(error.contains("'gates.0.wg.weight' has shape [4, 9], expected [4, 8]"),
             qPrintable(error));

    const QString none = write("none.safetensors", {{"input", {"F32", {4, 8}, {}}}});
    QVERIFY(routingLayerPrefixes(none, &error).isEmpty());
    QVERIFY2(error.contains("no MoE layer"), qPrintable(error));
  }

  void theInputMustFitTheLayer() {
    QString error;
    auto tensors = layerTensors("", 4, 8, 16);
    const QString no_input = write("no-input.safetensors", tensors);
    QVERIFY(!loadWhatIfSource(no_input, "", &error));
    QVERIFY2(error.contains("no tensor 'input'") && error.contains("[N, 8]"), qPrintable(error));

    // Given a place for them, tokens of its own: the layer's tensors and a standard-normal input.
    auto with_other = tensors;
    with_other["other.weight"] = {"F32", {3}, QByteArray(12, '\x01')};
    with_other["experts.batched_fc1_bias"].bytes = QByteArray(4 * 16 * 4, '\x02');
    const QString checkpoint = write("checkpoint.safetensors", with_other);
    const QString synthetic = dir_.filePath("synthetic.safetensors");
    auto source = loadWhatIfSource(checkpoint, "", &error, synthetic);
    QVERIFY2(source, qPrintable(error));
    QVERIFY(source->synthetic_input);
    QCOMPARE(source->tokens, 4096);
    QCOMPARE(source->server_tensors, synthetic);
    auto written = moe::test::readSafetensors(synthetic);
    QCOMPARE(written.size(), size_t{5});  // the layer's four and input; not other.weight
    QCOMPARE(written["input"].shape, (std::vector<int64_t>{4096, 8}));
    QCOMPARE(written["experts.batched_fc1_bias"].bytes,
             with_other["experts.batched_fc1_bias"].bytes);
    const std::vector<double> input = moe::test::values(written["input"]);
    double sum = 0, squares = 0;
    for (double v : input) {
      sum += v;
      squares += v * v;
    }
    const double n = static_cast<double>(input.size());
    QVERIFY(std::abs(sum / n) < 0.02);          // mean 0
    QVERIFY(std::abs(squares / n - 1) < 0.03);  // variance 1

    tensors["input"] = {"F32", {5, 7}, {}};
    QVERIFY(!loadWhatIfSource(write("wrong-dim.safetensors", tensors), "", &error));
    QVERIFY2(error.contains("has shape [5, 7], expected [N, 8]"), qPrintable(error));

    tensors["input"] = {"I64", {5, 8}, {}};
    QVERIFY(!loadWhatIfSource(write("ints.safetensors", tensors), "", &error));
    QVERIFY2(error.contains("I64"), qPrintable(error));

    tensors["input"] = {"F32", {5, 8}, {}};
    QVERIFY(!loadWhatIfSource(write("ok.safetensors", tensors), "blocks.0.", &error));
    QVERIFY2(error.contains("no MoE layer under the prefix 'blocks.0.'"), qPrintable(error));
  }

  // A capture lies two folders below its run's config.json: the run's setting is the captured one,
  // unless the config describes another layer.
  void theRunConfigGivesTheCapturedSetting() {
    QVERIFY(QDir(dir_.path()).mkpath("run/captures/step-4"));
    auto tensors = layerTensors("", 4, 8, 16);
    tensors["input"] = {"F32", {32, 8}, {}};
    const QString capture = write("run/captures/step-4/layer-0.safetensors", tensors);
    const QString config = dir_.filePath("run/config.json");
    auto writeConfig = [&](int64_t experts) {
      QFile file(config);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(QByteArray::fromStdString(nlohmann::json{
          {"seed", 7},
          {"model", {{"kind", "lm"}, {"dim", 8}}},
          {"moe",
           {{"experts", experts},
            {"hidden", 16},
            {"fc2_bias", false},
            {"top_k", 1},
            {"capacity_factor", -2.5},
            {"batch_prioritized_routing", true},
            {"activation", "relu"}}}}.dump()));
    };
    writeConfig(4);
    QCOMPARE(findRunConfig(capture), config);
    QString error;
    auto source = loadWhatIfSource(capture, "", &error);
    QVERIFY2(source, qPrintable(error));
    QCOMPARE(source->config_file, config);
    QCOMPARE(source->captured.capacity_factor, -2.5);
    QCOMPARE(source->captured.top_k, 1);
    QVERIFY(source->captured.batch_prioritized_routing);
    QCOMPARE(source->captured.seed, 7);
    QCOMPARE(source->tokens, 32);
    // The config replay gets: the run's moe keys (activation too), the layer's sizes, dim only.
    QVERIFY(source->config["moe"]["activation"] == "relu");
    QVERIFY(source->config["moe"]["experts"] == 4);
    QVERIFY(source->config["model"] == nlohmann::json({{"dim", 8}}));

    writeConfig(6);  // another run's config
    source = loadWhatIfSource(capture, "", &error);
    QVERIFY2(source, qPrintable(error));
    QVERIFY(source->config_file.isEmpty());
    QVERIFY2(source->config_note.contains("moe.experts is not the tensors' 4"),
             qPrintable(source->config_note));
    QCOMPARE(source->captured, RoutingSetting{});
    QVERIFY(source->config["moe"]["experts"] == 4);
  }

  void aOneExpertLayerGetsTopOne() {
    RoutingLayerShape one;
    one.experts = 1;
    one.dim = 4;
    one.hidden = 8;
    QVERIFY(replayConfig(one, nlohmann::json::object())["moe"]["top_k"] == 1);
    QVERIFY(replayConfig(one, {{"top_k", 3}})["moe"]["top_k"] == 3);  // a run's own: checked later
  }

  void requestsCarryEveryKnob() {
    RoutingSetting s;
    s.capacity_factor = -1.5;
    s.top_k = 3;
    s.batch_prioritized_routing = true;
    s.gate_noise = 0.25;
    s.normalize_gate = false;
    s.seed = 42;
    const std::string line = replayRequestLine(9, s);
    QVERIFY(line.back() == '\n');
    const auto json = nlohmann::json::parse(line);
    QVERIFY(json["id"] == 9);
    QVERIFY(json["seed"] == 42);
    QVERIFY(json["moe"]["capacity_factor"] == -1.5);
    QVERIFY(json["moe"]["top_k"] == 3);
    QVERIFY(json["moe"]["batch_prioritized_routing"] == true);
    QVERIFY(json["moe"]["gate_noise"] == 0.25);
    QVERIFY(json["moe"]["normalize_gate"] == false);
    RoutingSetting back = routingSettingFrom(json["moe"]);
    back.seed = 42;
    QCOMPARE(back, s);
    // A key of the wrong type keeps the engine's default.
    QCOMPARE(routingSettingFrom({{"top_k", "two"}}).top_k, 2);
  }

  void serverLinesParse() {
    ReplayLine ready = parseReplayLine(R"({"ready":true,"experts":64,"tokens":4096,"dim":512})");
    QCOMPARE(ready.kind, ReplayLine::Kind::Ready);
    QCOMPARE(ready.experts, 64);
    QCOMPARE(ready.tokens, 4096);

    ReplayLine answer = parseReplayLine(
        R"({"id":3,"capacity":5,"expert_counts":[7,1,0],"expert_kept":[5,1,0],"l_aux":1.25,)"
        R"("dropped_frac":0.25,"cv":1.1,"max_over_mean":2.625,"load_entropy":0.4,)"
        R"("router_entropy":0.9,"dead_experts":1,"importance":[0.5,0.3,0.2],"tokens":8,"ms":0.7})");
    QCOMPARE(answer.kind, ReplayLine::Kind::Answer);
    QCOMPARE(*answer.id, 3);
    QCOMPARE(answer.answer.capacity, 5);
    QCOMPARE(answer.answer.counts, (std::vector<int64_t>{7, 1, 0}));
    QCOMPARE(answer.answer.kept, (std::vector<int64_t>{5, 1, 0}));
    QCOMPARE(answer.answer.dropped(), 2);
    QCOMPARE(answer.answer.max_over_mean, 2.625);
    QCOMPARE(answer.answer.dead_experts, 1);

    ReplayLine refused = parseReplayLine(R"({"id":4,"error":"/moe/top_k: must be <= 3"})");
    QCOMPARE(refused.kind, ReplayLine::Kind::Error);
    QCOMPARE(*refused.id, 4);
    QCOMPARE(refused.error, QString("/moe/top_k: must be <= 3"));
    ReplayLine unreadable = parseReplayLine(R"({"id":null,"error":"line 2: not JSON"})");
    QCOMPARE(unreadable.kind, ReplayLine::Kind::Error);
    QVERIFY(!unreadable.id);

    ReplayLine partial = parseReplayLine(R"({"id":5,"capacity":5,"expert_counts":[1]})");
    QCOMPARE(partial.kind, ReplayLine::Kind::Malformed);
    QVERIFY2(partial.error.contains("expert_kept"), qPrintable(partial.error));
    QCOMPARE(parseReplayLine("garbage").kind, ReplayLine::Kind::Malformed);
  }
};

QTEST_GUILESS_MAIN(TestRoutingFiles)
#include "test_routing_files.moc"

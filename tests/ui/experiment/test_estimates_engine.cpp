// The estimates' parameter counts against the real engine: runs moe-train on tiny configs of
// every model kind (and glu experts, latent attention) and compares run_start's
// expert_parameters / dense_parameters exactly. Built only in a tree with the engine (MOE_TRAIN_BIN
// names it): it never skips.
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include "plan/config_estimates.h"
#include "protocol/run_config.h"

using nlohmann::json;

class TestEstimatesEngine : public QObject {
  Q_OBJECT

 private slots:
  void matchesTheEngine_data() {
    QTest::addColumn<QString>("config");
    const json train = {{"steps", 2}, {"batch_size", 4}, {"threads", 1}};
    auto add = [&](const char* name, json config) {
      config["train"] = train;
      config["name"] = name;
      QTest::newRow(name) << QString::fromStdString(config.dump());
    };
    add("helloworld", {{"model", {{"kind", "helloworld"}, {"dim", 16}, {"seq_len", 8}}},
                       {"moe", {{"experts", 4}, {"hidden", 8}}}});
    add("helloworld-cosine", {{"model", {{"kind", "helloworld"}, {"dim", 16}, {"seq_len", 8}}},
                              {"moe",
                               {{"experts", 4},
                                {"hidden", 8},
                                {"gate", "cosine"},
                                {"cosine_proj_dim", 8},
                                {"fc1_bias", false}}}});
    add("lm",
        {{"model", {{"kind", "lm"}, {"dim", 32}, {"layers", 3}, {"heads", 2}, {"seq_len", 16}}},
         {"moe", {{"experts", 4}, {"hidden", 32}, {"every", 2}}}});
    add("lm-untied-cosine", {{"model",
                              {{"kind", "lm"},
                               {"dim", 32},
                               {"layers", 2},
                               {"heads", 4},
                               {"seq_len", 8},
                               {"vocab", 64},
                               {"tie_embeddings", false}}},
                             {"moe",
                              {{"experts", 2},
                               {"top_k", 1},
                               {"hidden", 16},
                               {"gate", "cosine"},
                               {"cosine_proj_dim", 4},
                               {"fc2_bias", false}}}});
    add("helloworld-glu", {{"model", {{"kind", "helloworld"}, {"dim", 16}, {"seq_len", 8}}},
                           {"moe", {{"experts", 4}, {"hidden", 8}, {"expert_ffn", "glu"}}}});
    add("lm-glu",
        {{"model", {{"kind", "lm"}, {"dim", 32}, {"layers", 2}, {"heads", 2}, {"seq_len", 16}}},
         {"moe", {{"experts", 4}, {"hidden", 16}, {"expert_ffn", "glu"}, {"fc2_bias", false}}}});
    // GQA, q/k/v biases, per-head qk-norm, a dense block, a gated shared expert, untied head.
    add("decoder", {{"model",
                     {{"kind", "decoder"},
                      {"dim", 16},
                      {"layers", 3},
                      {"heads", 4},
                      {"kv_heads", 2},
                      {"seq_len", 8},
                      {"vocab", 64},
                      {"tie_embeddings", false},
                      {"qkv_bias", true},
                      {"qk_norm", "head"},
                      {"dense_layers", "1"},
                      {"dense_hidden", 24}}},
                    {"moe",
                     {{"experts", 4},
                      {"hidden", 8},
                      {"expert_ffn", "glu"},
                      {"activation", "silu"},
                      {"fc1_bias", false},
                      {"fc2_bias", false},
                      {"shared_hidden", 12},
                      {"shared_gate", true}}}});
    add("decoder-full-qk-norm-tied",
        {{"model",
          {{"kind", "decoder"},
           {"dim", 32},
           {"layers", 2},
           {"heads", 4},
           {"head_dim", 4},
           {"seq_len", 8},
           {"vocab", 64},
           {"qk_norm", "full"}}},
         {"moe", {{"experts", 3}, {"top_k", 1}, {"hidden", 8}, {"expert_ffn", "glu"}}}});
    // Multi-head latent attention with a query latent, a dense block, group-limited routing and
    // an ungated shared expert (DeepSeek-V3's shape); and without the query latent (V2-Lite's).
    const json mla = {{"kind", "decoder"},
                      {"attention", "mla"},
                      {"dim", 16},
                      {"layers", 2},
                      {"heads", 2},
                      {"q_lora_rank", 8},
                      {"kv_lora_rank", 6},
                      {"qk_rope_dim", 4},
                      {"qk_nope_dim", 6},
                      {"v_head_dim", 5},
                      {"seq_len", 8},
                      {"vocab", 32},
                      {"tie_embeddings", false},
                      {"dense_layers", "0"},
                      {"dense_hidden", 24}};
    const json group_routed = {{"experts", 4},
                               {"top_k", 2},
                               {"hidden", 8},
                               {"expert_ffn", "glu"},
                               {"fc1_bias", false},
                               {"fc2_bias", false},
                               {"router", "group_limited_top_k"},
                               {"score_function", "sigmoid"},
                               {"expert_groups", 2},
                               {"topk_groups", 1},
                               {"shared_hidden", 8},
                               {"shared_gate", false}};
    add("decoder-mla", {{"model", mla}, {"moe", group_routed}});
    json mla_full_q = mla;
    mla_full_q["q_lora_rank"] = 0;
    add("decoder-mla-full-q", {{"model", mla_full_q}, {"moe", group_routed}});
    add("image", {{"model", {{"kind", "image"}, {"dim", 16}, {"layers", 3}}},
                  {"moe", {{"experts", 4}, {"hidden", 16}, {"every", 2}}},
                  {"data", {{"kind", "synthetic"}}}});
    add("image-wide-cosine",
        {{"model", {{"kind", "image"}, {"dim", 24}, {"layers", 1}}},
         {"moe", {{"experts", 2}, {"hidden", 8}, {"gate", "cosine"}, {"cosine_proj_dim", 6}}},
         {"data", {{"kind", "synthetic"}}}});
  }

  void matchesTheEngine() {
    QFETCH(QString, config);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString config_path = dir.filePath("config.json");
    QFile file(config_path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(config.toUtf8());
    file.close();

    QProcess engine;
    engine.setProgram(QStringLiteral(MOE_TRAIN_BIN));
    engine.setArguments({"run", "--config", config_path, "--run-dir", dir.filePath("run")});
    engine.start();
    QVERIFY2(engine.waitForStarted(), qPrintable(engine.errorString()));
    // run_start is the first line; the rest of the run does not matter here.
    while (!engine.canReadLine() && engine.state() == QProcess::Running) {
      engine.waitForReadyRead(60000);
    }
    const QByteArray first = engine.readLine();
    engine.waitForFinished(120000);
    QVERIFY2(!first.isEmpty(), engine.readAllStandardError().constData());
    const json start = json::parse(first.toStdString());
    QCOMPARE(start.value("type", ""), std::string("run_start"));

    const auto run_config = moe::protocol::config_from_json(json::parse(config.toStdString()));
    const moe::plan::ParameterEstimate estimate = moe::plan::estimate_parameters(run_config);
    QCOMPARE(int64_t(estimate.experts), start.at("expert_parameters").get<int64_t>());
    QCOMPARE(int64_t(estimate.dense), start.at("dense_parameters").get<int64_t>());
    QCOMPARE(engine.exitCode(), 0);
  }
};

QTEST_GUILESS_MAIN(TestEstimatesEngine)
#include "test_estimates_engine.moc"

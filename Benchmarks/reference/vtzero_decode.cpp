// The reference for urlscheme-bench's MVT decode row: vtzero (header-only,
// with Debian's libprotozero-dev) decoding a whole tile the way our decoder
// does: every layer's key and value tables, every feature's id, type and
// properties (each value decoded to its type), and every point appended to
// flat arrays (points, part offsets, ring kinds), reused from tile to tile.
//
//   g++ -O2 -std=c++14 -I VTZERO/include vtzero_decode.cpp -o vtzero_decode
//   ./vtzero_decode TILE.mvt ITERATIONS    → median seconds, features, points
#include <vtzero/vector_tile.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

struct Flat {
    std::vector<vtzero::point> points;
    std::vector<uint32_t> part_starts;
    std::vector<uint8_t> exterior;
    void clear() { points.clear(); part_starts.clear(); exterior.clear(); }
};

struct Handler {
    Flat& flat;
    void points_begin(uint32_t) { flat.part_starts.push_back(uint32_t(flat.points.size())); flat.exterior.push_back(0); }
    void points_point(vtzero::point p) { flat.points.push_back(p); }
    void points_end() {}
    void linestring_begin(uint32_t) { flat.part_starts.push_back(uint32_t(flat.points.size())); flat.exterior.push_back(0); }
    void linestring_point(vtzero::point p) { flat.points.push_back(p); }
    void linestring_end() {}
    void ring_begin(uint32_t) { flat.part_starts.push_back(uint32_t(flat.points.size())); }
    void ring_point(vtzero::point p) { flat.points.push_back(p); }
    void ring_end(vtzero::ring_type type) { flat.exterior.push_back(type == vtzero::ring_type::outer); }
};

// Decodes a value to its type, as our decoder builds a VectorTileValue.
struct ValueSum {
    double operator()(vtzero::data_view v) const { return double(v.size()); }
    double operator()(float v) const { return v; }
    double operator()(double v) const { return v; }
    double operator()(int64_t v) const { return double(v); }
    double operator()(uint64_t v) const { return double(v); }
    double operator()(bool v) const { return v ? 1 : 0; }
};

static size_t decode(const std::string& data, Flat& flat, double& sum) {
    size_t features = 0;
    vtzero::vector_tile tile{data};
    while (auto layer = tile.next_layer()) {
        sum += layer.version() + layer.extent() + layer.name().size();
        for (const auto& key : layer.key_table()) sum += key.size();
        for (const auto& value : layer.value_table()) sum += vtzero::apply_visitor(ValueSum{}, value);
        while (auto feature = layer.next_feature()) {
            ++features;
            sum += double(feature.id()) + int(feature.geometry_type());
            feature.for_each_property_indexes([&](vtzero::index_value_pair&& pair) {
                sum += pair.key().value() + pair.value().value();
                return true;
            });
            vtzero::decode_geometry(feature.geometry(), Handler{flat});
        }
    }
    return features;
}

int main(int argc, char** argv) {
    if (argc < 3) { std::cerr << "usage: vtzero_decode TILE.mvt ITERATIONS\n"; return 2; }
    std::ifstream in(argv[1], std::ios::binary);
    const std::string data{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const int iterations = std::max(1, std::atoi(argv[2]));
    Flat flat;
    double sum = 0;
    size_t features = decode(data, flat, sum);  // warm-up
    std::vector<double> samples;
    for (int i = 0; i < iterations; ++i) {
        flat.clear();
        const auto start = std::chrono::steady_clock::now();
        features = decode(data, flat, sum);
        samples.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(samples.begin(), samples.end());
    std::cout << samples[samples.size() / 2] << " " << features << " " << flat.points.size() << " " << (sum != 0) << "\n";
}

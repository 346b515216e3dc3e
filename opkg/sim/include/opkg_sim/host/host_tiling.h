// Host mode of register/tilingdata_base.h: tiling classes that serialise their fields into a
// byte buffer laid out like the kernel-mode plain struct: declaration order, each field at its
// natural alignment, and, as CANN's TilingDef places them (CheckAlignAndGenPlaceHolder), nested
// structs 8-byte aligned and every class padded to a multiple of 8 bytes (cann-ops' MatMulV3
// tiling refuses a data size that is not).
#ifndef OPKG_SIM_HOST_TILING_H
#define OPKG_SIM_HOST_TILING_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace optiling {

struct FieldInfo {
    std::string dtype;
    std::string name;
    size_t offset;
    size_t size;
};

class TilingDef {
public:
    TilingDef() = default;
    // a copy is a value: it is bound to no buffer and nested in nothing
    TilingDef(const TilingDef& o)
        : class_name_(o.class_name_), data_(o.data_), fields_(o.fields_), children_(o.children_), align_(o.align_) {}
    TilingDef& operator=(const TilingDef& o) {
        data_ = o.data_;
        Touch();
        return *this;
    }
    virtual ~TilingDef() = default;
    // CANN's SetDataPtr: the object's fields live in `dataPtr` (the context's raw tiling data), so
    // an operator may fill them and only SetDataSize, with no SaveToBuffer. The sim keeps its own
    // copy and writes the whole (serialised) struct there on every set_ of it or of a nested
    // struct (writes through a get_<array>() pointer are not seen until the next set_).
    void SetDataPtr(void* dataPtr) {
        bound_ = static_cast<uint8_t*>(dataPtr);
        if (bound_) Flush();
    }
    void SaveToBuffer(void* pdata, size_t capacity) const {
        std::vector<uint8_t> bytes = Serialize();
        size_t n = bytes.size() < capacity ? bytes.size() : capacity;
        if (n) std::memcpy(pdata, bytes.data(), n);
    }
    size_t GetDataSize() const { return Padded(); }
    std::vector<FieldInfo> GetFieldInfo() const { return fields_; }
    const char* GetTilingClassName() const { return class_name_; }

    // Emulation internals.
    std::vector<uint8_t> Serialize() const {
        std::vector<uint8_t> out(data_);
        out.resize(Padded(), 0);
        for (const Child& c : children_) {
            const TilingDef* child = reinterpret_cast<const TilingDef*>(
                reinterpret_cast<const char*>(this) + c.delta);
            std::vector<uint8_t> sub = child->Serialize();
            std::memcpy(out.data() + c.offset, sub.data(), sub.size());
        }
        return out;
    }
    size_t Padded() const { return (data_.size() + kClassAlign - 1) / kClassAlign * kClassAlign; }
    size_t Align() const { return align_; }

protected:
    size_t AddField(const char* dtype, const char* name, size_t size, size_t align, size_t count) {
        size_t off = (data_.size() + align - 1) / align * align;
        data_.resize(off + size * count, 0);
        if (align > align_) align_ = align;
        fields_.push_back(FieldInfo{dtype, name, off, size * count});
        return off;
    }
    size_t AddStruct(const char* dtype, const char* name, const TilingDef& child) {
        size_t off = AddField(dtype, name, child.Padded() ? child.Padded() : 0, kClassAlign, 1);
        children_.push_back(Child{off, reinterpret_cast<const char*>(&child) - reinterpret_cast<const char*>(this)});
        const_cast<TilingDef&>(child).parent_ = this;
        return off;
    }
    template <class T> void Put(size_t off, const T& v) {
        std::memcpy(data_.data() + off, &v, sizeof(T));
        Touch();
    }
    // After a change: the outermost bound struct holding this one rewrites its buffer.
    void Touch() {
        for (TilingDef* d = this; d; d = d->parent_) {
            if (d->bound_) d->Flush();
        }
    }
    void Flush() const {
        std::vector<uint8_t> bytes = Serialize();
        if (!bytes.empty()) std::memcpy(bound_, bytes.data(), bytes.size());
    }
    template <class T> T Take(size_t off) const {
        T v;
        std::memcpy(&v, data_.data() + off, sizeof(T));
        return v;
    }
    uint8_t* Raw(size_t off) { return data_.data() + off; }

    const char* class_name_ = "";

private:
    struct Child {
        size_t offset;
        std::ptrdiff_t delta;   // position of the member inside this object (stable across copies)
    };
    std::vector<uint8_t> data_;
    std::vector<FieldInfo> fields_;
    std::vector<Child> children_;
    static constexpr size_t kClassAlign = 8;   // CANN's placeholder alignment of classes and struct fields
    size_t align_ = 1;
    TilingDef* parent_ = nullptr;   // the struct this one is a TILING_DATA_FIELD_DEF_STRUCT of
    uint8_t* bound_ = nullptr;      // SetDataPtr's buffer
};

using TilingDataConstructor = std::shared_ptr<TilingDef> (*)();

class CTilingDataClassFactory {
public:
    static CTilingDataClassFactory& GetInstance() {
        static CTilingDataClassFactory instance;
        return instance;
    }
    void RegisterTilingData(const char* op_type, TilingDataConstructor constructor) {
        instance_[op_type] = constructor;
    }
    std::shared_ptr<TilingDef> CreateTilingDataInstance(const char* op_type) {
        auto it = instance_.find(op_type);
        return it == instance_.end() ? nullptr : it->second();
    }
    const std::map<std::string, TilingDataConstructor>& All() const { return instance_; }

private:
    std::map<std::string, TilingDataConstructor> instance_;
};

}  // namespace optiling

#define BEGIN_TILING_DATA_DEF(class_name)                  \
    class class_name : public ::optiling::TilingDef {      \
    public:                                                \
        class_name() { class_name_ = #class_name; }

#define TILING_DATA_FIELD_DEF(data_type, field_name)                                                        \
public:                                                                                                    \
    void set_##field_name(data_type v) { Put<data_type>(field_name##_opkg_off_, v); }                       \
    data_type get_##field_name() const { return Take<data_type>(field_name##_opkg_off_); }                  \
                                                                                                           \
private:                                                                                                   \
    size_t field_name##_opkg_off_ = AddField(#data_type, #field_name, sizeof(data_type), alignof(data_type), 1);

#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                                           \
public:                                                                                                    \
    void set_##field_name(const arr_type* v) {                                                             \
        std::memcpy(Raw(field_name##_opkg_off_), v, sizeof(arr_type) * (arr_size));                        \
        Touch();                                                                                           \
    }                                                                                                      \
    arr_type* get_##field_name() { return reinterpret_cast<arr_type*>(Raw(field_name##_opkg_off_)); }      \
                                                                                                           \
private:                                                                                                   \
    size_t field_name##_opkg_off_ = AddField(#arr_type, #field_name, sizeof(arr_type), alignof(arr_type), (arr_size));

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                                               \
public:                                                                                                    \
    struct_type field_name;                                                                                \
                                                                                                           \
private:                                                                                                   \
    size_t field_name##_opkg_off_ = AddStruct(#struct_type, #field_name, field_name);

// CANN closes the class with its own semicolon: `END_TILING_DATA_DEF` alone must compile too
#define END_TILING_DATA_DEF };

#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                                                     \
    static struct op_type##class_name##OpkgRegistrar {                                                      \
        op_type##class_name##OpkgRegistrar() {                                                              \
            ::optiling::CTilingDataClassFactory::GetInstance().RegisterTilingData(                          \
                #op_type, []() -> std::shared_ptr<::optiling::TilingDef> { return std::make_shared<class_name>(); }); \
        }                                                                                                   \
    } g_opkg_tiling_registrar_##op_type##class_name;

#endif
